// The contract's check of a channel's answer, in turns when the answer is long: one check of a 10,000-file import
// plan (12.5 MB) held the app's main loop for 26–108 ms in one piece. The answer is the same as one safeParse gives.
import { z } from 'zod';
import { isPlainObject } from '../platform/plain-object';
import { turnClock, turnIfDue, type TurnClock } from '../platform/turn-clock';

/** An array of more items than this is checked an item at a time, with turns of the loop between. */
export const CHECK_ITEMS = 64;
/** How far down long arrays are looked for: a plan's `projects[].files` is four levels below the answer. */
const DEPTH = 4;

export type CheckedOutput = { success: true; data: unknown } | { success: false; message: string };

interface Turns {
  clock: TurnClock;
  signal?: AbortSignal;
}

/** True when the schema has no refinement or length rule of its own (that would need the whole value at once). */
const noChecks = (schema: z.ZodType): boolean => ((schema.def as { checks?: unknown[] }).checks ?? []).length === 0;

/** The array schema a field is, through an optional or nullable wrapper, when neither has a rule of its own. */
function arraySchema(field: z.ZodType): z.ZodArray<z.ZodType> | null {
  const inner =
    (field instanceof z.ZodOptional || field instanceof z.ZodNullable) && noChecks(field) ? (field.unwrap() as z.ZodType) : field;
  return inner instanceof z.ZodArray && noChecks(inner) ? (inner as z.ZodArray<z.ZodType>) : null;
}

/** Per object schema, its fields that are arrays (a schema's shape never changes). */
const arrayFieldsOf = new WeakMap<z.ZodObject, Array<[string, z.ZodType]>>();
function arrayFields(schema: z.ZodObject): Array<[string, z.ZodType]> {
  let fields = arrayFieldsOf.get(schema);
  if (!fields) {
    fields = Object.entries(schema.shape as Record<string, z.ZodType>).filter(([, field]) => arraySchema(field) !== null);
    arrayFieldsOf.set(schema, fields);
  }
  return fields;
}

/** True when checking `value` at once could take long: a long array, or an array's items or an object's array fields holding one. */
function needsTurns(schema: z.ZodType, value: unknown, depth: number): boolean {
  if (depth < 0) return false;
  const array = arraySchema(schema);
  if (array && Array.isArray(value)) return value.length > CHECK_ITEMS || value.some((item) => needsTurns(array.element, item, depth - 1));
  if (!(schema instanceof z.ZodObject) || !noChecks(schema) || !isPlainObject(value)) return false;
  return arrayFields(schema).some(([key, field]) => Object.hasOwn(value, key) && needsTurns(field, value[key], depth - 1));
}

function whole(schema: z.ZodType, value: unknown, path: string): CheckedOutput {
  const checked = schema.safeParse(value);
  if (checked.success) return { success: true, data: checked.data };
  return { success: false, message: path ? `${path}: ${checked.error.message}` : checked.error.message };
}

/** An array an item at a time, with turns between. */
async function checkArray(array: z.ZodArray<z.ZodType>, items: unknown[], depth: number, turns: Turns, path: string) {
  const checked: unknown[] = [];
  for (const [index, item] of items.entries()) {
    await turnIfDue(turns.clock, turns.signal);
    const one = await checkValue(array.element, item, depth - 1, turns, `${path}[${index}]`);
    if (!one.success) return one;
    checked.push(one.data);
  }
  return { success: true as const, data: checked };
}

async function checkValue(schema: z.ZodType, value: unknown, depth: number, turns: Turns, path: string): Promise<CheckedOutput> {
  if (!needsTurns(schema, value, depth)) return whole(schema, value, path);
  const array = arraySchema(schema);
  if (array && Array.isArray(value)) return checkArray(array, value, depth, turns, path);
  // A plain object (needsTurns said so): checked with its long array fields empty, then each of those.
  const fields = value as Record<string, unknown>;
  const deferred = arrayFields(schema as z.ZodObject).filter(
    ([key, field]) => Object.hasOwn(fields, key) && needsTurns(field, fields[key], depth - 1),
  );
  const head = whole(schema, { ...fields, ...Object.fromEntries(deferred.map(([key]) => [key, []])) }, path);
  if (!head.success) return head;
  const data = head.data as Record<string, unknown>;
  for (const [key, field] of deferred) {
    const one = await checkValue(field, fields[key], depth - 1, turns, path ? `${path}.${key}` : key);
    if (!one.success) return one;
    data[key] = one.data;
  }
  return { success: true, data };
}

/**
 * `schema.safeParse(value)` as a promise. Long arrays (and the items and objects that hold them, a few levels down) are
 * checked an item at a time, with a turn of the loop every few milliseconds, the rest of an object at once; a value
 * with no long array is checked at once. Throws Cancelled when `signal` aborts between turns.
 */
export async function checkOutput(
  schema: z.ZodType,
  value: unknown,
  { clock = turnClock(), signal }: { clock?: TurnClock; signal?: AbortSignal } = {},
): Promise<CheckedOutput> {
  if (!needsTurns(schema, value, DEPTH)) return whole(schema, value, '');
  // The work that made the answer has just held the loop: a turn first.
  await clock.turn();
  return checkValue(schema, value, DEPTH, { clock, signal }, '');
}
