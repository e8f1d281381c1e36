// The app:// protocol: serves only files of the built renderer folder, with our CSP (checklist: "Use a custom protocol instead of file://").
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { extname } from 'node:path';
import { CONTENT_SECURITY_POLICY, MIME_TYPES, resolveStaticPath } from '../core/service/static-files';
import { APP_HOST, APP_SCHEME } from './guards';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === APP_HOST ? resolveStaticPath(rendererDir, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    if (!response.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Content-Type', MIME_TYPES[extname(file)] ?? 'application/octet-stream');
    return new Response(response.body, { status: 200, headers });
  });
}
