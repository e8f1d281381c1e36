// No engine reads a secret: before any engine runs, every secret in the staging copy is written as `[REDACTED_SECRET]`,
// with a record of what was hidden (path, lines, rules; never the secret), and after it, what became of each such file.
import { createHash } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import { FILES, REDACTED_SECRET } from '../codex/constants';
import { redactAllSecrets, scanSecrets, secretLabel } from '../lint';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { walkFiles } from './workspace-diff';

/** One staged file whose secrets the engine does not see: where they were and what they were, never the secret. */
export interface HiddenSecrets {
  /** Root-relative path in staging (and in the live folder it was copied from). */
  path: string;
  /** 1-based lines of the copied text that held a secret. */
  lines: number[];
  /** The scanner's rules (`secrets/github-token`), each once, in order of first finding. */
  rules: string[];
  count: number;
  /** SHA-256 of the redacted text the engine was given: a file still matching it is one the engine left alone. */
  sha256: string;
}

/** What the engine did with the files whose secrets it never saw. */
export interface HiddenOutcome {
  /** Files the engine left exactly as staged (redacted): the proposal leaves the live file as it is. */
  untouched: string[];
  /** One log line per file: what the engine saw and what the result does about the live file's secret. */
  notes: string[];
}

const CONCURRENCY = 32;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const secrets = (n: number) => (n === 1 ? '1 secret' : `${n} secrets`);

/** `MEMORY.md: 1 secret (a GitHub token, line 12)`: what a file held, in words. */
function described(h: HiddenSecrets): string {
  const kinds = h.rules.map(secretLabel).join(', ');
  return `${h.path}: ${secrets(h.count)} (${kinds}; line${h.lines.length === 1 ? '' : 's'} ${h.lines.join(', ')})`;
}

/** The run's log line for a file whose secrets were hidden, said at staging. */
export function hiddenNote(h: HiddenSecrets): string {
  return `${described(h)} hidden from the engine: it reads ${REDACTED_SECRET} in ${h.count === 1 ? 'its' : 'their'} place.`;
}

/** The hidden record of one staged file, or null when it holds no secret (or is binary: a NUL byte, never scanned). */
async function hideOne(root: string, path: string): Promise<HiddenSecrets | null> {
  const abs = join(root, ...path.split('/'));
  const { bytes, info } = await readRegularFile(abs, path, NO_CAP);
  if (bytes.includes(0)) return null;
  const text = bytes.toString('utf8');
  const found = scanSecrets(text);
  if (found.length === 0) return null;
  const redacted = redactAllSecrets(text);
  // Never written in place: a staged file may be a hard link to the live one (the builtin engine's rollout summaries).
  await unlink(abs);
  await writeFile(abs, redacted, { encoding: 'utf8', flag: 'wx', mode: info.mode & 0o777 });
  return {
    path,
    lines: [...new Set(found.map((f) => f.line))],
    rules: [...new Set(found.map((f) => f.rule))],
    count: found.length,
    sha256: sha256(redacted),
  };
}

/**
 * Writes every secret of every text file in the staging copy as `[REDACTED_SECRET]` (the import gate's redactor,
 * `redactAllSecrets`), so no engine reads one: the codex agent reads the folder, the openai engine sends its files off
 * the machine. `skip` are the files the sync rendered, already redacted as they were written. Returns what was hidden,
 * by path; the live folder is never touched.
 */
export async function hideSecretsInStaging(root: string, skip: ReadonlySet<string>, signal: AbortSignal): Promise<HiddenSecrets[]> {
  const { files } = await walkFiles(root, [FILES.workspaceDiff]);
  const todo = files.filter((p) => !skip.has(p));
  const out: HiddenSecrets[] = [];
  // One queue the workers share: each takes the next path.
  const queue = todo.values();
  const worker = async (): Promise<void> => {
    for (const path of queue) {
      signal.throwIfAborted();
      const hidden = await hideOne(root, path);
      if (hidden) out.push(hidden);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The artifacts Apply re-validates as they would land: a secret left in one of them refuses the Apply. */
const gatedAtApply = (version: MemoryVersion, path: string) => path === FILES.summary || (version === 'v1' && path === FILES.memory);

/**
 * After the engine: a hidden file still as staged is one the engine left alone, so the proposal must not turn its
 * placeholder into an edit nobody asked for (the live file stays as it is, no hunk). One the engine changed is proposed
 * as the engine left it, placeholder included: the proposal redacts the live file there, a hunk the review marks.
 */
export async function settleHiddenSecrets(root: string, version: MemoryVersion, hidden: readonly HiddenSecrets[]): Promise<HiddenOutcome> {
  const outcome: HiddenOutcome = { untouched: [], notes: [] };
  for (const h of hidden) {
    const text = await readRegularFile(join(root, ...h.path.split('/')), h.path, NO_CAP).then(
      (file) => file.bytes.toString('utf8'),
      () => null,
    );
    const was = `${h.path}: ${secrets(h.count)} ${h.count === 1 ? 'was' : 'were'} hidden from the engine`;
    if (text !== null && sha256(text) === h.sha256) {
      outcome.untouched.push(h.path);
      const apply = gatedAtApply(version, h.path)
        ? ' Apply refuses while this file holds a secret: redact it first (Files view, Redact).'
        : '';
      outcome.notes.push(`${was}, which left the file as it was; the proposal leaves the live file as it is.${apply}`);
    } else if (text === null) {
      outcome.notes.push(`${was}, which removed the file; the proposal deletes it.`);
    } else if (text.includes(REDACTED_SECRET)) {
      outcome.notes.push(`${was}; the result writes ${REDACTED_SECRET} in ${h.count === 1 ? 'its' : 'their'} place.`);
    } else {
      outcome.notes.push(`${was}; the result no longer has ${h.count === 1 ? 'it' : 'them'}.`);
    }
  }
  return outcome;
}
