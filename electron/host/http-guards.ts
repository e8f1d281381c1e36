// The serve host's guards, kept pure so each one has a test proving it rejects: token, Host, Origin, static paths.
import { timingSafeEqual } from 'node:crypto';

/** Hosts this server answers to: its own port on loopback, by address or by name. DNS rebinding fails here. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader !== undefined && allowedHosts(port).has(hostHeader.toLowerCase());
}

/** No Origin (same-origin GET, curl) is fine; any Origin must be this server's own. */
export function isAllowedOrigin(originHeader: string | undefined, port: number): boolean {
  if (originHeader === undefined) return true;
  return originHeader === `http://127.0.0.1:${port}` || originHeader === `http://localhost:${port}`;
}

/** Reads the token from `Authorization: Bearer <t>` or the `token` query parameter (EventSource cannot set headers). */
export function presentedToken(authorization: string | undefined, url: URL): string | undefined {
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    return match?.[1];
  }
  return url.searchParams.get('token') ?? undefined;
}

export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export { CONTENT_SECURITY_POLICY, resolveStaticPath } from '../core/service/static-files';
