// A model name is data, never an option: checked before it is stored, sent, or put on `codex exec`'s command line.

/** As providers spell models (gpt-5.4, o4-mini, openai/gpt-oss:20b): letters, digits and . _ : / -, never a leading "-". */
export const MODEL_NAME = /^[A-Za-z0-9._:/][A-Za-z0-9._:/-]{0,199}$/;

/** Null when `value` may name a model; else why not, in words (a value such as `--dangerously-bypass-…` is an option). */
export function modelNameProblem(value: string): string | null {
  if (MODEL_NAME.test(value)) return null;
  const shown = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value.startsWith('-')) return `${shown} starts with "-", so \`codex\` would read it as an option, not as a model name`;
  if (value.length > 200) return `${shown} is longer than 200 characters`;
  return `${shown} holds characters a model name never has (only letters, digits and . _ : / - are allowed)`;
}
