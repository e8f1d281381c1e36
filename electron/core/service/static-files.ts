// Maps app URLs to files of the built renderer, for both hosts (serve over HTTP, Electron's app:// protocol).
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';

/**
 * Maps a URL path to a file inside the built renderer folder, or null: decoded once, normalised,
 * and refused when it contains NUL, a backslash, `..`, or resolves outside the folder.
 */
export function resolveStaticPath(rendererDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((segment) => segment === '..')) return null;
  const relativePath = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const target = resolve(rendererDir, normalize(relativePath));
  const rel = relative(rendererDir, target);
  if (rel === '' || rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) return null;
  return target;
}

/** The Content-Security-Policy both hosts send (Electron checklist; Monaco needs inline styles, never eval). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Content types by extension: module scripts and workers must be served as JavaScript on both hosts. */
export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};
