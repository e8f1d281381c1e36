// Who a process is across machines, reboots and PID namespaces: a pid alone means nothing outside its namespace.
//
// A lease holder `memory-studio:<pid>` written from a container (or before a reboot) names a pid of another
// namespace: checking it here with kill(pid, 0) would call a live holder dead and take its lease over. Holders
// carry `@<namespace>`, a hash of the host name, the boot id and the PID namespace, and only a holder of our own
// namespace is ever judged by its pid.
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { processAlive } from './process-alive';

function readOr(read: () => string, fallback: string): string {
  try {
    return read().trim();
  } catch {
    return fallback;
  }
}

let cached: string | null = null;

/** 12 hex characters naming this machine, boot and PID namespace. */
export function namespaceId(): string {
  if (cached !== null) return cached;
  // Linux has a boot id and a PID namespace inode; elsewhere the boot time (to 10 s) stands in for the boot id.
  const boot = readOr(
    () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'),
    `boot@${Math.round((Date.now() / 1000 - uptime()) / 10)}`,
  );
  const pidNamespace = readOr(() => readlinkSync('/proc/self/ns/pid'), 'no-pid-namespace');
  cached = createHash('sha256').update(`${hostname()}\n${boot}\n${pidNamespace}`).digest('hex').slice(0, 12);
  return cached;
}

export const STUDIO_WORKER_PREFIX = 'memory-studio:';

/** Codex's `worker_id` for our claims: `memory-studio:<pid>@<namespace>`. */
export function studioWorkerId(): string {
  return `${STUDIO_WORKER_PREFIX}${process.pid}@${namespaceId()}`;
}

/** The pid and namespace of a Memory Studio holder (namespace null for the older `memory-studio:<pid>`). */
export function parseStudioWorker(workerId: string | null): { pid: number; namespace: string | null } | null {
  const match = /^memory-studio:(\d+)(?:@([0-9a-f]+))?$/.exec(workerId ?? '');
  return match ? { pid: Number(match[1]), namespace: match[2] ?? null } : null;
}

/**
 * True only for a process of this namespace that no longer exists. A holder of another namespace, or one that does
 * not say its namespace, is never judged dead here: its lease runs until it expires, as Codex's own do.
 */
export function deadInThisNamespace(pid: number, namespace: string | null | undefined): boolean {
  return namespace === namespaceId() && pid !== process.pid && !processAlive(pid);
}
