// `memory-studio parse FILE`: one memory file (or a session rollout) parsed, with its structure and diagnostics.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parsedKinds, type ParsedKind } from '../../shared/formats';
import { outlineOf } from '../core/formats';
import { parseMemoryBytes } from '../core/formats/read-file';
import { parseSessionRollout } from '../core/sessions';
import { ANALYSIS_CAP_BYTES } from '../core/workspace';
import { CliUsageError } from './cli-errors';

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { kind: { type: 'string' }, json: { type: 'boolean' } } });
  const file = positionals[0];
  if (!file) throw new CliUsageError('parse needs a file: memory-studio parse FILE [--kind K] [--json]');
  const kind = values.kind as ParsedKind | 'session_rollout' | undefined;
  if (kind !== undefined && kind !== 'session_rollout' && !parsedKinds.includes(kind)) {
    throw new CliUsageError(`--kind must be one of ${[...parsedKinds, 'session_rollout'].join(', ')}.`);
  }
  const path = resolve(file);
  const info = await stat(path);
  if (!info.isFile()) throw new CliUsageError(`${path} is not a file.`);
  if (kind === 'session_rollout' || (kind === undefined && path.endsWith('.jsonl'))) return printSession(path, values.json === true);
  if (info.size > ANALYSIS_CAP_BYTES) throw new CliUsageError(`${path} is larger than ${ANALYSIS_CAP_BYTES} bytes; Memory Studio does not parse it.`);
  const parsed = outlineOf(parseMemoryBytes(await readFile(path), { path, kind: kind as ParsedKind | undefined }));
  if (values.json) console.log(JSON.stringify(parsed, null, 2));
  else {
    console.log(`${path}: ${parsed.kind}, ${parsed.lineCount} lines`);
    for (const d of parsed.diagnostics) console.log(`  ${d.severity.padEnd(7)} line ${d.line}${d.endLine !== d.line ? `-${d.endLine}` : ''}  ${d.rule}  ${d.message}`);
    if (parsed.diagnostics.length === 0) console.log('  no diagnostics');
  }
  return parsed.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

/** A session rollout (JSONL): thread, cwd, assistant messages and its memory citation blocks, streamed line by line. */
async function printSession(path: string, json: boolean): Promise<number> {
  const session = await parseSessionRollout(path);
  if (json) console.log(JSON.stringify(session, null, 2));
  else {
    console.log(`${path}: session_rollout, thread ${session.threadId ?? 'unknown'}, cwd ${session.cwd ?? 'unknown'}, ${session.assistantMessageCount} assistant messages, ${session.citations.length} citation blocks`);
    for (const c of session.citations) for (const e of c.entries) console.log(`  line ${c.line}: cites ${e.path}:${e.lineStart}-${e.lineEnd} (${e.note})`);
    for (const d of session.diagnostics) console.log(`  ${d.severity.padEnd(7)} line ${d.line}  ${d.rule}  ${d.message}`);
  }
  return session.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

