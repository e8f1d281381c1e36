// `memory-studio parse FILE`: one memory file (or a session rollout) parsed, with its structure and diagnostics.
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parsedKinds, type ParsedKind } from '../../shared/formats';
import { StudioFailure, toStudioError } from '../core/platform/errors';
import { describeFileType, notRegular } from '../core/platform/regular-file';
import { parseMemoryFile, parseSessionRollout } from '../core/service/use-cases/parse';
import { CliUsageError } from './cli-errors';
import { printJson, reportingFailures } from './cli-output';
import { cliPath } from './cli-io';

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { kind: { type: 'string' }, json: { type: 'boolean' } },
  });
  const file = positionals[0];
  if (!file) throw new CliUsageError('parse needs a file: memory-studio parse FILE [--kind K] [--json]');
  const kind = values.kind as ParsedKind | 'session_rollout' | undefined;
  if (kind !== undefined && kind !== 'session_rollout' && !parsedKinds.includes(kind)) {
    throw new CliUsageError(`--kind must be one of ${[...parsedKinds, 'session_rollout'].join(', ')}.`);
  }
  return reportingFailures(values.json, async () => {
    const path = cliPath(file);
    // stat, not open: a FIFO, socket or device is refused before anything waits on it.
    const info = await stat(path).catch((error: unknown) => {
      throw new StudioFailure('NotFound', `${path} cannot be read (${toStudioError(error, path).message}).`, {
        path,
        hint: 'Check the path and try again.',
      });
    });
    if (!info.isFile()) throw notRegular(path, describeFileType(info));
    if (kind === 'session_rollout' || (kind === undefined && path.endsWith('.jsonl'))) return printSession(path, values.json === true);
    return printParsed(path, kind, values.json === true);
  });
}

/** One memory file, refused (not parsed leniently) when it is too big, binary or not UTF-8, as the app refuses it. */
async function printParsed(path: string, kind: ParsedKind | undefined, json: boolean): Promise<number> {
  const parsed = await parseMemoryFile(path, kind);
  if (json) printJson(parsed);
  else {
    console.log(`${path}: ${parsed.kind}, ${parsed.lineCount} lines`);
    for (const d of parsed.diagnostics)
      console.log(`  ${d.severity.padEnd(7)} line ${d.line}${d.endLine !== d.line ? `-${d.endLine}` : ''}  ${d.rule}  ${d.message}`);
    if (parsed.diagnostics.length === 0) console.log('  no diagnostics');
  }
  return parsed.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

/** A session rollout (JSONL): thread, cwd, assistant messages and its memory citation blocks, streamed line by line. */
async function printSession(path: string, json: boolean): Promise<number> {
  const session = await parseSessionRollout(path);
  if (json) printJson(session);
  else {
    console.log(
      `${path}: session_rollout, thread ${session.threadId ?? 'unknown'}, cwd ${session.cwd ?? 'unknown'}, ${session.assistantMessageCount} assistant messages, ${session.citations.length} citation blocks`,
    );
    for (const c of session.citations)
      for (const e of c.entries) console.log(`  line ${c.line}: cites ${e.path}:${e.lineStart}-${e.lineEnd} (${e.note})`);
    for (const d of session.diagnostics) console.log(`  ${d.severity.padEnd(7)} line ${d.line}  ${d.rule}  ${d.message}`);
  }
  return session.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
