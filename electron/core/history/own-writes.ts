// What our own Applies wrote, remembered for a while, so the watcher's event for them is not taken for Codex's.
import { sha256Text } from '../review/disk-base';

/** How long our own Apply's writes are remembered. */
export const OWN_WRITE_TTL_MS = 60_000;

/** A file's content as last seen (content and hash null: the file was absent). */
export interface KnownContent {
  sha256: string | null;
  content: string | null;
  at: number;
}

export interface OwnWrites {
  /** Called by Apply while its locks are held: these contents are ours, not Codex's. */
  note(files: readonly { root: string; relPath: string; content: string | null }[], now?: number): void;
  /** Our latest write of the file, while it is remembered. */
  latest(root: string, relPath: string, now?: number): KnownContent | undefined;
}

const keyOf = (root: string, relPath: string) => `${root}\0${relPath}`;

export function createOwnWrites(): OwnWrites {
  const writes = new Map<string, KnownContent>();
  return {
    note(files, now = Date.now()) {
      for (const [key, known] of writes) if (now - known.at > OWN_WRITE_TTL_MS) writes.delete(key);
      for (const f of files)
        writes.set(keyOf(f.root, f.relPath), { sha256: f.content === null ? null : sha256Text(f.content), content: f.content, at: now });
    },
    latest(root, relPath, now = Date.now()) {
      const own = writes.get(keyOf(root, relPath));
      return own && now - own.at <= OWN_WRITE_TTL_MS ? own : undefined;
    },
  };
}
