// The contract's check of a channel's answer, in turns when the answer is long: one check of a 10,000-file import
// plan (12.5 MB) held the app's main loop for 26–108 ms in one piece. The answer is the same as one safeParse gives.
import { z } from 'zod';
import { turnClock, type TurnClock } from '../platform/turn-clock';

/** An array of more items than this is checked an item at a time, with turns of the loop between; shorter, at once. */
export const CHECK_ITEMS = 64;

export type CheckedOutput = { success: true; data: unknown } | { success: false; message: string };

/** True when the schema has no refinement or length rule of its own (that would need the whole value at once). */
const noChecks = (schema: z.ZodType): boolean => ((schema.def as { checks?: unknown[] }).checks ?? []).length === 0;

/** The item schema of a field holding a long array, when nothing but its items is checked. */
function longArrayItem(field: z.ZodType, value: unknown): z.ZodType | null {
  if (!Array.isArray(value) || value.length <= CHECK_ITEMS) return null;
  const schema = field instanceof z.ZodOptional || field instanceof z.ZodNullable ? (field.unwrap() as z.ZodType) : field;
  return schema instanceof z.ZodArray && noChecks(schema) ? (schema.element as z.ZodType) : null;
}

const whole = (schema: z.ZodType, value: unknown): CheckedOutput => {
  const checked = schema.safeParse(value);
  return checked.success ? { success: true, data: checked.data } : { success: false, message: checked.error.message };
};

/** Each item checked, with a turn of the loop whenever the clock says; the first failure names its field and item. */
async function checkItems(key: string, item: z.ZodType, items: readonly unknown[], clock: TurnClock): Promise<CheckedOutput> {
  const checked: unknown[] = [];
  for (const [index, value] of items.entries()) {
    if (clock.due()) await clock.turn();
    const one = item.safeParse(value);
    if (!one.success) return { success: false, message: `${key}[${index}]: ${one.error.message}` };
    checked.push(one.data);
  }
  return { success: true, data: checked };
}

/**
 * `schema.safeParse(value)` as a promise. An object whose top-level arrays are long (and checked item by item only) is
 * checked with those arrays empty, then each array an item at a time, with a turn of the loop every few milliseconds;
 * any other schema or value is checked at once.
 */
export async function checkOutput(schema: z.ZodType, value: unknown, clock: TurnClock = turnClock()): Promise<CheckedOutput> {
  if (!(schema instanceof z.ZodObject) || !noChecks(schema) || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return whole(schema, value);
  }
  const fields = value as Record<string, unknown>;
  const long = new Map<string, z.ZodType>();
  for (const [key, field] of Object.entries(schema.shape)) {
    const item = Object.hasOwn(fields, key) ? longArrayItem(field, fields[key]) : null;
    if (item) long.set(key, item);
  }
  if (long.size === 0) return whole(schema, value);
  // The work that made the answer has just held the loop: a turn first.
  await clock.turn();
  const head = whole(schema, { ...fields, ...Object.fromEntries([...long.keys()].map((key) => [key, []])) });
  if (!head.success) return head;
  const data = head.data as Record<string, unknown>;
  for (const [key, item] of long) {
    const items = await checkItems(key, item, fields[key] as unknown[], clock);
    if (!items.success) return items;
    data[key] = items.data;
  }
  return { success: true, data };
}
