// `memory-studio export --out FILE`: every file of a memory root in one .tar.gz with a manifest of hashes (lossless),
// a file with a possible secret held back and named (exit 4), as `sync push` does.
import { parseArgs } from 'node:util';
import type { ExportResult } from '../core/service/use-cases/export';
import { printFailure } from './cli-decisions';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { cliCodexHome, cliDataDir, cliPath, writeStderr } from './cli-io';
import { printJson } from './cli-output';
import { HELD_BACK_EXIT } from './cli-sync';
import { withCliPrefix } from './cli-follow-up';

const options = {
  out: { type: 'string' },
  version: { type: 'string' },
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

function printExport(r: ExportResult): void {
  console.log(`Exported ${r.files} file(s) of ${r.version} (${r.root}, ${size(r.bytes)}) to ${r.out} (${size(r.archiveBytes)}).`);
  for (const h of r.heldBack) console.log(`held back: ${h.path}: ${withCliPrefix(h.reason, true)}`);
  if (r.heldBack.length > 0) console.log(`${r.heldBack.length} file(s) held back; they are named in the manifest, never in the bundle.`);
}

export async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  if (!values.out) throw new CliUsageError('export needs --out FILE: the .tar.gz to write (outside the Codex home).');
  if (values.version !== undefined && values.version !== 'v1' && values.version !== 'v2')
    throw new CliUsageError(`--version takes v1 or v2, not "${values.version}".`);
  try {
    const [{ openCommandHome }, uc] = await Promise.all([
      import('../core/service/use-cases/command-home.js'),
      import('../core/service/use-cases/export.js'),
    ]);
    const choice = cliCodexHome(values['codex-home']);
    requireFolder(choice.codexHome, HOME_HINT);
    const home = await openCommandHome(choice, cliDataDir(values['data-dir']), (line) => writeStderr(`${line}\n`));
    const result = await uc.exportBundleForCommand(home, cliPath(values.out), values.version);
    if (values.json) printJson({ ok: true, ...result });
    else printExport(result);
    return result.heldBack.length > 0 ? HELD_BACK_EXIT : 0;
  } catch (error) {
    return printFailure(values.json, error);
  }
}
