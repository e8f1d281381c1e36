// Writing a bundle: the .tar.gz built with node-tar, in a temp file beside its target, fsynced, then renamed over it.
import { createWriteStream } from 'node:fs';
import { open, stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Header, Pack, ReadEntry } from 'tar';
import { renameDurable, tempPathFor } from '../platform/atomic-write';
import type { BundleManifest } from './bundle';

export interface ArchiveFile {
  path: string;
  bytes: Buffer;
  mode: number;
  mtime: Date;
}

function tarEntry(path: string, bytes: Buffer, mode: number, mtime: Date): ReadEntry {
  const entry = new ReadEntry(new Header({ path, mode, size: bytes.length, mtime, type: 'File' }));
  if (bytes.length > 0) entry.write(bytes);
  entry.end();
  return entry;
}

/** The .tar.gz written to a temp file beside `out`, fsynced, then renamed over it: a failure leaves nothing behind. */
export async function writeArchive(out: string, manifest: BundleManifest, files: readonly ArchiveFile[]): Promise<number> {
  const pack = new Pack({ gzip: true, portable: true });
  const at = new Date(manifest.exportedAt);
  pack.add(tarEntry('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 0o644, at));
  for (const f of files) pack.add(tarEntry(`files/${f.path}`, f.bytes, f.mode, f.mtime));
  pack.end();
  const temp = tempPathFor(out);
  try {
    await pipeline(
      async function* () {
        for await (const chunk of pack) yield chunk;
      },
      createWriteStream(temp, { flags: 'wx', mode: 0o600 }),
    );
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const size = (await stat(temp)).size;
    await renameDurable(temp, out);
    return size;
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
