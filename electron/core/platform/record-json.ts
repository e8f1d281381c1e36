// Records Memory Studio reads back from its data folder (a journal, a lock, a lease record) are parsed, never cast: a
// truncated file, a hand edit or another build's shape becomes a problem in words, and each caller decides what is safe.
//
// zod is a type here only: the schemas live in modules their callers load when a record is found, so the commands
// that start by looking for leftovers (inspect among them) load no zod when there are none.
import type { ZodType } from 'zod';

export type ParsedRecord<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `bytes` as JSON checked against `schema`; when it is not, `problem` names the first field that is wrong and why. */
export function parseRecord<T>(schema: ZodType<T>, bytes: Buffer): ParsedRecord<T> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const [issue, ...rest] = result.error.issues;
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'the record';
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  return { ok: false, problem: `${where}: ${issue?.message ?? 'not the expected shape'}${more}` };
}
