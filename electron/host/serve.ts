// The serve host: the built renderer and the contract over HTTP on 127.0.0.1, guarded by a per-start token.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { isChannelName } from '../../shared/contract';
import type { ErrorKind } from '../../shared/result';
import type { StudioService } from '../core/service/service';
import { MIME_TYPES } from '../core/service/static-files';
import { jsonInTurns } from '../core/platform/json-in-turns';
import { turnClock } from '../core/platform/turn-clock';
import { CONTENT_SECURITY_POLICY, isAllowedHost, isAllowedOrigin, presentedToken, resolveStaticPath, tokenMatches } from './http-guards';

export interface ServeOptions {
  service: StudioService;
  rendererDir: string;
  port?: number;
  token?: string;
  /** What the person ran, which printed the URL (`npm start`, `memory-studio serve`): a 401 names it. */
  startedBy?: string;
  /** A client must send its request headers within this time (slowloris); default 10 s. */
  headersTimeoutMs?: number;
  /** At most this many event streams at once (each holds a socket and a listener); default 32. */
  maxEventStreams?: number;
}

export interface ServeHandle {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The channels that carry a whole file's text, which the contract lets be 32 MiB (a note 1 MiB): their bodies may be
 * as large as such a text written as JSON, or the browser could not propose an edit of a big MEMORY.md that the
 * window (over IPC, no such cap) can. Every other channel keeps the 1 MiB cap.
 */
const CONTENT_CHANNELS: ReadonlySet<string> = new Set(['review.propose', 'review.revise', 'review.decide', 'review.note']);
const MAX_CONTENT_BODY_BYTES = 100 * 1024 * 1024;

/** The largest body `channel` reads. */
export function bodyLimitOf(channel: string): number {
  return CONTENT_CHANNELS.has(channel) ? MAX_CONTENT_BODY_BYTES : MAX_BODY_BYTES;
}
const SSE_KEEPALIVE_MS = 25_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_EVENT_STREAMS = 32;
/** The whole request (headers and body) must arrive within this time. */
const REQUEST_TIMEOUT_MS = 120_000;

/** A body over its channel's limit: answered 413, not read any further. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body over ${limit} bytes`);
  }
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * sendJson for a channel's answer, which can be long (a 10,000-file import plan): serialized and encoded in turns of
 * the loop, and dropped once the page has gone.
 */
async function sendAnswer(res: ServerResponse, body: unknown, gone: AbortSignal): Promise<void> {
  const pieces = await jsonInTurns(body, { signal: gone });
  const clock = turnClock();
  const chunks: Buffer[] = [];
  for (const piece of pieces ?? []) {
    chunks.push(Buffer.from(piece));
    if (clock.due()) await clock.turn();
  }
  // The page went away while the answer was serialized: nothing is left to send it to.
  if (pieces === null || gone.aborted || res.destroyed) return;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': chunks.reduce((n, chunk) => n + chunk.length, 0),
  });
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

/**
 * The kind of a refusal by the transport (before any channel ran), from its status, so the two always agree. A
 * channel's own answer is a Result with status 200 whatever it says, as over IPC: errors are data, and a page's
 * expected failure (a missing file) does not show as a failed request in the browser's console.
 */
export function kindOfStatus(status: number): ErrorKind {
  if (status === 404) return 'NotFound';
  if (status === 405) return 'Unsupported';
  if (status === 503) return 'Busy';
  if (status >= 500) return 'Internal';
  return 'Invalid'; // 400, 401, 403, 413, 415
}

const transportError = (res: ServerResponse, status: number, message: string) =>
  sendJson(res, status, { ok: false, error: { kind: kindOfStatus(status), message } });

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** 413, then the connection is closed: the rest of an oversized body is never read. */
function bodyTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  const text = JSON.stringify({
    ok: false,
    error: {
      kind: kindOfStatus(413),
      message: `The request body is larger than ${limit / 1024 / 1024} MiB, so it was refused.`,
      hint: 'Send smaller requests.',
    },
  });
  res.writeHead(413, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    Connection: 'close',
  });
  const socket = req.socket as typeof req.socket | null;
  res.end(text, () => socket?.destroy());
}

interface EventStreams {
  open: number;
  max: number;
}

function handleEvents(req: IncomingMessage, res: ServerResponse, service: StudioService, streams: EventStreams): void {
  if (req.method !== 'GET') return transportError(res, 405, 'Use GET for /api/events.');
  if (streams.open >= streams.max) {
    return sendJson(res, 503, {
      ok: false,
      error: {
        kind: kindOfStatus(503),
        message: `${streams.max} live-update streams are already open, so this one was refused.`,
        hint: 'Close other Memory Studio tabs of this server and reload.',
      },
    });
  }
  streams.open++;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  const unsubscribe = service.onEvent((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
  const keepalive = setInterval(() => res.write(': keepalive\n\n'), SSE_KEEPALIVE_MS);
  req.on('close', () => {
    streams.open--;
    clearInterval(keepalive);
    unsubscribe();
  });
}

async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  service: StudioService,
  streams: EventStreams,
): Promise<void> {
  const name = url.pathname.slice('/api/'.length);
  if (name === 'events') return handleEvents(req, res, service, streams);
  if (!isChannelName(name)) return transportError(res, 404, `No channel named "${name}".`);
  if (req.method !== 'POST') return transportError(res, 405, `Use POST for /api/${name}.`);
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) {
    return transportError(res, 415, 'Send the request body as application/json.');
  }
  let input: unknown;
  try {
    const text = await readBody(req, bodyLimitOf(name));
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    if (error instanceof BodyTooLarge) return bodyTooLarge(req, res, error.limit);
    return sendJson(res, 400, {
      ok: false,
      error: { kind: kindOfStatus(400), message: `The request body is not valid JSON (${(error as Error).message}).` },
    });
  }
  // A client that goes away before the answer (a page that moved on: a superseded query) stops the work with it.
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const result = await service.dispatch(name, input, { signal: gone.signal });
  if (!gone.signal.aborted) await sendAnswer(res, result, gone.signal);
}

async function handleStatic(req: IncomingMessage, res: ServerResponse, url: URL, rendererDir: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return transportError(res, 405, 'Only GET is served here.');
  const file = resolveStaticPath(rendererDir, url.pathname);
  if (!file) return transportError(res, 404, 'Not found.');
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return transportError(res, 404, 'Not found.');
  const isIndex = file.endsWith('index.html');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': MIME_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': isIndex ? 'no-store' : 'public, max-age=3600',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

export async function startServeHost(options: ServeOptions): Promise<ServeHandle> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let port = options.port ?? 0;
  const streams: EventStreams = { open: 0, max: options.maxEventStreams ?? DEFAULT_MAX_EVENT_STREAMS };
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  // A client that trickles its headers (or its body) is cut off instead of holding a socket for ever; Node checks
  // these deadlines every `connectionsCheckingInterval`.
  const limits = {
    headersTimeout,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const server = createServer(limits, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Guards run before any routing: a foreign Host (DNS rebinding) or Origin (cross-site) is refused outright.
    if (!isAllowedHost(req.headers.host, port)) return transportError(res, 403, 'This server only answers to 127.0.0.1 and localhost.');
    if (!isAllowedOrigin(req.headers.origin, port)) return transportError(res, 403, 'Cross-site requests are refused.');
    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
    if (isApi && !tokenMatches(presentedToken(req.headers.authorization, url), token)) {
      const by = options.startedBy ?? 'memory-studio serve';
      return transportError(res, 401, `Missing or wrong access token. Open the URL that ${by} printed in its terminal.`);
    }
    const work = isApi ? handleApi(req, res, url, options.service, streams) : handleStatic(req, res, url, options.rendererDir);
    work.catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { ok: false, error: { kind: kindOfStatus(500), message: `Unexpected error: ${(error as Error).message}` } });
      else res.end();
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolvePromise());
  });
  const address = server.address();
  if (address && typeof address === 'object') port = address.port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}
