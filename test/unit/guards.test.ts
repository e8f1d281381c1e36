// Every security guard proves it rejects: IPC sender, navigation, external URLs, static paths, token, Host, Origin.
import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, presentedToken, resolveStaticPath, tokenMatches } from '../../electron/host/http-guards';
import {
  isAllowedExternalUrl,
  isAllowedNavigation,
  isTrustedSender,
  parseMainArgs,
  secureWebPreferences,
} from '../../electron/main/guards';

describe('IPC sender check', () => {
  const trusted = new Set([7]);
  const good = { webContentsId: 7, frameUrl: 'app://studio/index.html', isTopFrame: true };
  it('accepts the top frame of our own window on our origin', () => expect(isTrustedSender(good, trusted)).toBe(true));
  it.each([
    ['an unknown webContents', { ...good, webContentsId: 8 }],
    ['an iframe', { ...good, isTopFrame: false }],
    ['a destroyed frame', { ...good, frameUrl: null }],
    ['a foreign origin', { ...good, frameUrl: 'https://evil.example/index.html' }],
    ['another app host', { ...good, frameUrl: 'app://other/index.html' }],
    ['a file URL', { ...good, frameUrl: 'file:///tmp/index.html' }],
    ['garbage', { ...good, frameUrl: 'not a url' }],
  ])('rejects %s', (_name, sender) => expect(isTrustedSender(sender, trusted)).toBe(false));
});

describe('navigation and external links', () => {
  it('allows navigation only inside app://studio', () => {
    expect(isAllowedNavigation('app://studio/index.html')).toBe(true);
    expect(isAllowedNavigation('https://example.com/')).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd')).toBe(false);
    expect(isAllowedNavigation('app://evil/index.html')).toBe(false);
  });
  it('opens only https links without credentials', () => {
    expect(isAllowedExternalUrl('https://github.com/openai/codex')).toBe(true);
    expect(isAllowedExternalUrl('http://github.com/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalUrl('smb://host/share')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@example.com/')).toBe(false);
  });
});

describe('static file paths (app:// and serve)', () => {
  const dir = '/srv/renderer';
  it('maps / and assets inside the folder', () => {
    expect(resolveStaticPath(dir, '/')).toBe('/srv/renderer/index.html');
    expect(resolveStaticPath(dir, '/assets/index-abc.js')).toBe('/srv/renderer/assets/index-abc.js');
  });
  it.each([
    '/../etc/passwd',
    '/%2e%2e/etc/passwd',
    '/assets/%2E%2E/%2E%2E/etc/passwd',
    '/..%2fetc/passwd',
    '/a%5c..%5cb',
    '/x%00.js',
    '/%E0%A4%A',
  ])('refuses %s', (path) => expect(resolveStaticPath(dir, path)).toBeNull());
});

describe('serve host token, Host and Origin', () => {
  it('accepts only our own host and port', () => {
    expect(isAllowedHost('127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedHost('localhost:4000', 4000)).toBe(true);
    expect(isAllowedHost('evil.example:4000', 4000)).toBe(false);
    expect(isAllowedHost('127.0.0.1:4001', 4000)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 4000)).toBe(false);
    expect(isAllowedHost(undefined, 4000)).toBe(false);
  });
  it('accepts no Origin or our own, refuses any other', () => {
    expect(isAllowedOrigin(undefined, 4000)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:4000', 4000)).toBe(true);
    expect(isAllowedOrigin('http://evil.example', 4000)).toBe(false);
    expect(isAllowedOrigin('null', 4000)).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:4001', 4000)).toBe(false);
  });
  it('reads the token from Bearer or the query, and compares exactly', () => {
    const url = new URL('http://127.0.0.1/api/x?token=abc');
    expect(presentedToken('Bearer xyz', url)).toBe('xyz');
    expect(presentedToken(undefined, url)).toBe('abc');
    expect(presentedToken('Basic abc', url)).toBeUndefined();
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});

describe('Electron main arguments', () => {
  it('reads our switches in both forms and ignores Chromium ones', () => {
    expect(parseMainArgs(['/electron', '.', '--codex-home=/h', '--data-dir', '/d', '--demo', '--no-sandbox'])).toEqual({
      codexHome: '/h',
      dataDir: '/d',
      demo: true,
    });
  });
});

describe('window webPreferences', () => {
  it('isolates and sandboxes every window, with no Node anywhere', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({
      preload: '/p.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('Content-Security-Policy', () => {
  it('the page meta CSP and the hosts header CSP agree, and neither allows eval', async () => {
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { CONTENT_SECURITY_POLICY } = await import('../../electron/core/service/static-files');
    const html = await readFile(join(__dirname, '..', '..', 'renderer', 'index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    // frame-ancestors only works as a header, so the page cannot carry it.
    const header = CONTENT_SECURITY_POLICY.split('; ')
      .filter((d) => !d.startsWith('frame-ancestors'))
      .join('; ');
    expect(meta).toBe(header);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });
});
