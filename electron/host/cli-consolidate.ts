// `memory-studio consolidate`: the input preview, or a run whose result becomes a proposal (printed by id).
import { parseArgs } from 'node:util';
import type { EngineName, InputPreview, RunStatus } from '../../shared/consolidate';
import { engineNames } from '../../shared/consolidate';
import type { MemoryVersion } from '../../shared/domain';
import { StudioFailure, toStudioError } from '../core/platform/errors';
import { createStudioService, type StudioService } from '../core/service/service';
import { CliUsageError } from './cli-errors';
import { packageVersion } from './paths';
import { printJson } from './cli-output';
import { onStopSignals } from './stop-signals';
import { cliCodexHome, cliDataDir, stderrIsTTY, writeStderr } from './cli-io';
import { proposalFlags, followUp, type RunFlags, withCliPrefix } from './cli-follow-up';

const options = {
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  version: { type: 'string' },
  engine: { type: 'string' },
  model: { type: 'string' },
  preview: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function engineOf(value: string | undefined): EngineName | undefined {
  if (value === undefined) return undefined;
  if ((engineNames as readonly string[]).includes(value)) return value as EngineName;
  throw new CliUsageError(`--engine must be one of ${engineNames.join(', ')}, not "${value}".`);
}

function versionOf(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined || value === 'v1' || value === 'v2') return value;
  throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
}

function progressLine(status: RunStatus): string {
  return `${status.phase} ${Math.round(status.progress * 100)}%  ${status.message}`;
}

function printRun(status: RunStatus, flags: RunFlags): void {
  console.log(`${status.id}  ${status.state}  engine ${status.engine}${status.model ? ` (${status.model})` : ''}`);
  console.log(status.message);
  for (const d of status.validation?.diagnostics ?? []) console.log(`  ${d.severity} ${d.path}:${d.line} ${d.message}`);
  if (status.proposalId)
    console.log(`Proposal: ${status.proposalId}  (review it with: ${followUp(['show', status.proposalId], proposalFlags(flags))})`);
  if (status.error?.hint) console.log(withCliPrefix(status.error.hint));
}

/** Exit codes: 0 a proposal (or nothing to do), 1 failed, 3 Codex holds its lock, 130 cancelled with Ctrl+C. */
function exitCode(status: RunStatus): number {
  if (status.state === 'proposed' || status.state === 'unchanged') return 0;
  if (status.state === 'cancelled') return 130;
  return status.error?.kind === 'Locked' ? 3 : 1;
}

export async function consolidateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  const engine = engineOf(values.engine);
  const service = createStudioService({
    home: cliCodexHome(values['codex-home']),
    dataDir: cliDataDir(values['data-dir']),
    host: 'serve',
    appVersion: packageVersion(),
    watch: false,
    holdConsolidationLease: false,
  });
  try {
    return await consolidateWith(service, values, engine);
  } catch (error) {
    // Refusals before a run starts (Codex holds its lock, its DB is damaged, a full disk, no memory folder) are
    // answers, not crashes; with --json any failure is one.
    const failure = toStudioError(error);
    if (!(error instanceof StudioFailure) && (!values.json || failure.kind === 'Internal')) throw error;
    if (values.json) printJson({ state: 'refused', error: failure });
    console.error(failure.message);
    if (failure.hint) console.error(withCliPrefix(failure.hint));
    return failure.kind === 'Locked' ? 3 : 1;
  } finally {
    service.dispose();
  }
}

type RunOptions = RunFlags & { json?: boolean; model?: string };

async function consolidateWith(
  service: StudioService,
  values: RunOptions & { version?: string; preview?: boolean },
  engine: EngineName | undefined,
): Promise<number> {
  const home = await service.call('home.get', {});
  const version =
    versionOf(values.version) ??
    home.roots.find((r) => r.exists && r.version === home.config.memories.version)?.version ??
    home.roots.find((r) => r.exists)?.version;
  if (!version)
    throw new StudioFailure('NotFound', `${home.codexHome} has no memory folder yet.`, {
      hint: 'Run Codex with memories on first, or pass --codex-home.',
    });
  if (values.preview) {
    const preview = await service.call('consolidate.preview', { version, engine });
    if (values.json) printJson(preview);
    else printPreview(preview);
    return 0;
  }
  return await run(service, version, engine, values);
}

async function run(service: StudioService, version: MemoryVersion, engine: EngineName | undefined, values: RunOptions): Promise<number> {
  const json = values.json === true;
  const stop = service.onEvent((event) => {
    if (event.event === 'consolidate.progress' && !json && stderrIsTTY()) writeStderr(`\r\x1b[K${progressLine(event.payload)}`);
  });
  const started = await service.call('consolidate.start', { version, engine, model: values.model });
  // Ctrl+C (or SIGTERM) asks the run to stop, which hands Codex's lease back, and settled() below reports how it ended; a
  // cancel that fails is said, not thrown. A second signal, or a run that does not end by the deadline, ends the process.
  const onSigint = () => {
    service.call('consolidate.cancel', { id: started.id }).catch((error: unknown) => {
      console.error(`\nCould not cancel consolidation ${started.id}: ${toStudioError(error).message}`);
    });
  };
  const signals = onStopSignals(onSigint);
  try {
    const status = await service.consolidation().settled(started.id);
    if (!json && stderrIsTTY()) writeStderr('\n');
    if (json)
      printJson({
        runId: status.id,
        state: status.state,
        proposalId: status.proposalId,
        message: status.message,
        validation: status.validation,
        error: status.error,
        phases: status.phases,
      });
    else printRun(status, values);
    return exitCode(status);
  } finally {
    signals.dispose();
    stop();
  }
}

function printPreview(preview: InputPreview): void {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`${preview.version} memory in ${preview.root}`);
  console.log(`Engine: ${preview.engine}${preview.model ? ` (${preview.model})` : ''}`);
  console.log(
    `Selected: ${preview.selection.rows.length} of ${preview.selection.eligible} eligible stage-1 outputs (limit ${preview.selection.limit}, unused for at most ${preview.selection.maxUnusedDays} days), ${kb(preview.selection.bytes)}`,
  );
  console.log(
    `  rollout summaries to add ${preview.selection.added.length}, to remove ${preview.selection.removed.length}; not enabled ${preview.selection.excludedNotEnabled}`,
  );
  console.log(
    `Ad-hoc notes: ${preview.adHocNotes.count} (${kb(preview.adHocNotes.bytes)}); extension resources: ${preview.extensionResources.count} (${preview.extensionResources.expired.length} expired); imports: ${preview.imports.count} file(s) in ${preview.imports.projects.length} project(s)`,
  );
  console.log(`Hand edits since the last consolidation: ${preview.handEdits.hasBaseline ? preview.handEdits.files.length : 'no baseline'}`);
  console.log(`Estimated tokens: ${preview.tokens.in} in, ${preview.tokens.out} out`);
  for (const s of preview.secrets)
    console.log(`Secret in an input: ${s.path} line ${s.lines.join(', ')} (${s.kinds.join(', ')}); engines get it as [REDACTED_SECRET]`);
  console.log(`Codex's lock: ${preview.lease.message}`);
  for (const note of preview.notes) console.log(`Note: ${note}`);
}
