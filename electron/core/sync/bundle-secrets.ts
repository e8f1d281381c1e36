// The secrets an export would carry, looked for on the worker pool (this module is the task; bundle-export.ts sends a
// few slices of the files of equal bytes at once, so both cores share the scan and the main loop only reads and packs).
import { scanImportSecrets } from '../import/secrets';
import { decodeUtf8Strict } from '../platform/utf8';

/** A file's first possible secret (rule and line) and how many there are; null when it has none. */
export interface FileSecret {
  rule: string;
  line: number;
  count: number;
}

/**
 * Secrets in a file's bytes: as UTF-8, and for a file that is not valid UTF-8 also as UTF-16 (what PowerShell 5's ">"
 * writes) and Latin-1, so a key does not travel because of its encoding.
 */
export function secretsIn(bytes: Buffer): ReturnType<typeof scanImportSecrets> {
  const utf8 = scanImportSecrets(bytes.toString('utf8'));
  if (utf8.length > 0 || decodeUtf8Strict(bytes) !== null) return utf8;
  for (const encoding of ['utf16le', 'latin1'] as const) {
    const found = scanImportSecrets(bytes.toString(encoding));
    if (found.length > 0) return found;
  }
  return [];
}

function firstSecret(bytes: Uint8Array): FileSecret | null {
  const found = secretsIn(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const first = found[0]?.finding;
  return first ? { rule: first.rule, line: first.line, count: found.length } : null;
}

/** The pool task: each file of a slice (its bytes arrive as a Uint8Array), in order. */
export function bundleSecretsTask(input: { files: Uint8Array[] }): (FileSecret | null)[] {
  return input.files.map(firstSecret);
}
