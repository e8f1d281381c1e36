// JSON.stringify's text of a long answer, built in turns: one stringify of a 10,000-file import plan (12.5 MB) held
// the serve host's loop for 35–50 ms, right after the check of the same answer.
import { isPlainObject } from './plain-object';
import { turnClock, turnIfDue, type TurnClock } from './turn-clock';

/** An array of more items than this is serialized an item at a time, with turns of the loop between. */
export const JSON_ITEMS = 64;
/** How far down long arrays are looked for: an answer's `{ ok, value: { projects: [{ files }] } }` is four levels. */
const DEPTH = 4;

interface Turns {
  clock: TurnClock;
  signal?: AbortSignal;
}

const hasToJSON = (value: object): boolean => typeof (value as { toJSON?: unknown }).toJSON === 'function';

/** An object serialized key by key exactly as JSON.stringify would: plain, with no toJSON of its own. */
const isPlain = (value: unknown): value is Record<string, unknown> => isPlainObject(value) && !hasToJSON(value);

/** True when `value` is a long array, or an array or plain object holding one, at most `depth` levels down. */
function holdsLongArray(value: unknown, depth: number): boolean {
  if (depth < 0) return false;
  if (Array.isArray(value)) {
    if (hasToJSON(value)) return false;
    return value.length > JSON_ITEMS || value.some((item) => holdsLongArray(item, depth - 1));
  }
  return isPlain(value) && Object.values(value).some((child) => holdsLongArray(child, depth - 1));
}

/** An array: its items' texts gathered into one piece per turn; an item holding a long array written in its own pieces. */
async function writeItems(items: readonly unknown[], depth: number, out: string[], turns: Turns): Promise<void> {
  let texts: string[] = [];
  let before = 0; // items already in `out`
  const flush = () => {
    if (texts.length === 0) return;
    out.push((before > 0 ? ',' : '') + texts.join(','));
    before += texts.length;
    texts = [];
  };
  out.push('[');
  for (const item of items) {
    if (turns.clock.due()) flush();
    await turnIfDue(turns.clock, turns.signal);
    if (holdsLongArray(item, depth - 1)) {
      flush();
      if (before > 0) out.push(',');
      await write(item, depth - 1, out, turns);
      before++;
    } else {
      // An array's undefined, function or symbol item is written as null, as JSON.stringify writes it.
      texts.push(JSON.stringify(item) ?? 'null');
    }
  }
  flush();
  out.push(']');
}

async function write(value: unknown, depth: number, out: string[], turns: Turns): Promise<void> {
  if (!holdsLongArray(value, depth)) {
    out.push(JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) return writeItems(value, depth, out, turns);
  let first = true;
  out.push('{');
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (holdsLongArray(child, depth - 1)) {
      out.push(name);
      await write(child, depth - 1, out, turns);
    } else {
      // A key whose value JSON leaves out (undefined, a function, a symbol) is left out here too.
      const text = JSON.stringify(child) as string | undefined;
      if (text === undefined) continue;
      out.push(name + text);
    }
    first = false;
  }
  out.push('}');
}

/**
 * The pieces whose concatenation is `JSON.stringify(value)`, or null when `signal` aborted on the way. Long arrays, and
 * the arrays and plain objects holding them a few levels down, are written an item or a key at a time, with a turn of
 * the loop every few milliseconds; anything else is one piece. (A toJSON method is called with the key "", not its
 * key or index: no answer of the contract has one that reads it.)
 */
export async function jsonInTurns(
  value: unknown,
  { clock = turnClock(), signal }: { clock?: TurnClock; signal?: AbortSignal } = {},
): Promise<string[] | null> {
  const out: string[] = [];
  try {
    await write(value, DEPTH, out, { clock, signal });
  } catch (error) {
    // Cancelled between turns: the caller went away.
    if (signal?.aborted) return null;
    throw error;
  }
  return out;
}
