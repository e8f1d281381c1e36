// JSON.stringify's text of a long answer, built in turns: one stringify of a 10,000-file import plan (12.5 MB) held
// the serve host's loop for 35–50 ms, right after the check of the same answer.
import { turnClock, type TurnClock } from './turn-clock';

/** An array of more items than this is serialized an item at a time, with turns of the loop between; shorter, at once. */
export const JSON_ITEMS = 64;
/** Plain objects are looked into this deep for long arrays (an answer's `{ ok, value: { writes } }` is two). */
const DEPTH = 3;

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  Object.getPrototypeOf(value) === Object.prototype &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** True when `value` is or holds a long array, at most `depth` plain objects down. */
function holdsLongArray(value: unknown, depth: number): boolean {
  if (Array.isArray(value)) return value.length > JSON_ITEMS;
  if (depth === 0 || !isPlain(value)) return false;
  return Object.values(value).some((child) => holdsLongArray(child, depth - 1));
}

/** A long array: its items' texts gathered into one piece per turn. */
async function writeItems(items: readonly unknown[], out: string[], clock: TurnClock): Promise<void> {
  let texts: string[] = [];
  let written = false;
  const flush = () => {
    if (texts.length === 0) return;
    out.push((written ? ',' : '') + texts.join(','));
    written = true;
    texts = [];
  };
  out.push('[');
  for (const item of items) {
    if (clock.due()) {
      // What is gathered goes out as a piece before the turn.
      flush();
      await clock.turn();
    }
    // An array's undefined, function or symbol item is written as null, as JSON.stringify writes it.
    texts.push(JSON.stringify(item) ?? 'null');
  }
  flush();
  out.push(']');
}

async function write(value: unknown, depth: number, out: string[], clock: TurnClock): Promise<void> {
  if (Array.isArray(value) && value.length > JSON_ITEMS) return writeItems(value, out, clock);
  if (!isPlain(value) || !holdsLongArray(value, depth)) {
    out.push(JSON.stringify(value));
    return;
  }
  let first = true;
  out.push('{');
  for (const [key, child] of Object.entries(value)) {
    const name = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (holdsLongArray(child, depth - 1)) {
      out.push(name);
      await write(child, depth - 1, out, clock);
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
 * The pieces whose concatenation is `JSON.stringify(value)` (for a value JSON can hold). Long arrays in plain objects a
 * few levels down are serialized an item at a time, with a turn of the loop every few milliseconds; anything else is
 * one piece.
 */
export async function jsonInTurns(value: unknown, clock: TurnClock = turnClock()): Promise<string[]> {
  const out: string[] = [];
  await write(value, DEPTH, out, clock);
  return out;
}
