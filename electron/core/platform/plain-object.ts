// One test of "a plain object", shared by the code that walks answers (the output check, its JSON in turns, masking).

/** An object whose keys are all its own (no prototype but Object's, or none): `{ ...value }` copies it whole. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
