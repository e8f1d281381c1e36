// The `memory-studio` command line: start (Electron, or the browser fallback), serve, demo-home.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../core/data-dir';
import { toStudioError } from '../core/errors';
import { resolveCodexHome, type HomeChoice } from '../core/home';
import { ensureDemoHome } from '../core/demo-home-choice';
import { createStudioService } from '../core/service';
import { budgetCommand, CliUsageError, inspectCommand, lintCommand, parseCommand, secretsCommand } from './cli-inspect';
import { consolidateCommand } from './cli-consolidate';
import { doctorCommand, promoteCommand } from './cli-doctor';
import { applyEngineFlags, engineFlagOptions, type EngineFlags } from './cli-engine-flags';
import { installMaskingConsole, printUnmasked } from './cli-output';
import { importCommand } from './cli-import';
import { applyCommand, forgetCommand, historyCommand, noteCommand, proposeCommand, rebaseCommand, revertCommand, showCommand } from './cli-review';
import { runElectron } from './electron-launch';
import { packageVersion, rendererDir } from './paths';
import { startServeHost } from './serve';

const USAGE = `Memory Studio: see, review and curate what Codex CLI remembers.

Usage:
  memory-studio start [--codex-home DIR] [--data-dir DIR] [--demo] [--serve] [--port N]
      Opens the desktop app. Where Electron cannot start (no binary, no display), serves the
      same UI on 127.0.0.1 and prints its URL. --serve skips Electron.
  memory-studio serve [--codex-home DIR] [--port N] [--data-dir DIR] [--demo]
                      [--codex-command PATH] [--openai-base-url URL] [--openai-key-env NAME] [--engine-settings FILE]
      Serves the UI and its API on 127.0.0.1 only, behind a random token carried in the URL. The codex command,
      the base URL and the API key variable are set only by these flags (start takes them too), never by the page.
  memory-studio demo-home DIR [--scale small|heavy] [--version v1|v2|both] [--seed N] [--json]
      Writes a realistic generated Codex home (memory files, SQLite state, sessions) into DIR.
  memory-studio inspect [--codex-home DIR] [--version v1|v2] [--json]
      Overview: files, lint, what the next session sees, usage, pipeline health.
  memory-studio lint [--codex-home DIR] [--version v1|v2] [--json]
      Codex's own validators, the templates' rules, secrets, stale entries. Exit code 1 on any error.
  memory-studio secrets [--codex-home DIR] [--version v1|v2] [--json]
      Scans every memory file for secrets (Codex's patterns, gitleaks' rules, bare keys), masked. Exit 1 on any.
  memory-studio budget [--codex-home DIR] [--version v1|v2] [--limit N] [--text] [--json]
      Exactly what Codex injects from memory_summary.md, and which lines it cuts.
  memory-studio parse FILE [--kind K] [--json]
      Parses one memory file (or a Claude Code memory file) and prints its structure and diagnostics.
  memory-studio propose --codex-home DIR [--version v1|v2] --file REL --content-file F [--title T] [--json]
  memory-studio note --codex-home DIR [--version v1|v2] --slug S --text-file F [--json]
      Turn an edit, or a new ad-hoc note, into a proposal (nothing is written yet); prints its id.
  memory-studio forget THREAD_ID [--codex-home DIR] [--json]
      "Forget this session" as Codex does it (its stage-1 output and job removed, memory_mode disabled):
      a proposal to review and apply like any other; prints its id.
  memory-studio show ID [--json]
      The proposal's files and hunks, with hunk ids; conflict hunks are marked.
  memory-studio rebase ID [--json]
      Merges what changed on disk into the proposal (three-way). Exit 0 merged cleanly, 2 conflicts remain (listed).
  memory-studio apply ID [--accept all | --accept HUNK_ID,...] [--resolve HUNK=theirs|ours|both,...] [--json]
      Writes the accepted hunks atomically under Codex's lock; --accept never resolves a conflict.
      Exit 0 applied, 2 conflict (changed on disk, or a conflict unresolved: nothing written), 3 locked, 1 error.
  memory-studio history [--file REL] [--version v1|v2] [--json]
  memory-studio revert ENTRY_ID [--json]
      The applied changes, and a new proposal that undoes one of them.
  memory-studio consolidate [--codex-home DIR] [--version v1|v2] [--engine builtin|codex|openai] [--model M] [--preview] [--json]
      --preview prints Codex's phase-2 inputs; otherwise runs the engine in a staging copy and prints the
      proposal id of the result (nothing is written until it is applied). Exit 0, 1 failed, 3 locked, 130 cancelled.
  memory-studio import --from claude|cursor [--source-home DIR] [--codex-home DIR] [--project KEY,...] [--repo DIR,...]
                       [--cursor-db FILE] [--keep-removed] (--plan [--redact-secrets | --skip-secret-files] | --apply (--redact-secrets | --skip-secret-files)) [--json]
      --plan prints projects, files, skipped entries with reasons and secret findings with line numbers;
      --apply proposes the import, accepts it and applies it under Codex's lock. Exit 0, 2 conflict, 3 locked, 1 error.
  memory-studio doctor [--codex-home DIR] [--version v1|v2] [--project DIR ...] [--stale-days N] [--kind K,...] [--json]
  memory-studio doctor --fix ID [--project DIR] [--json]
      Duplicates, overlaps with AGENTS.md / CLAUDE.md, stale and oversize entries, each with a stable id and the
      text that triggered it. --fix turns one fix (merge, retire, promote, forget) into a proposal; prints its id.
  memory-studio promote (ENTRY_ID | --file MEMORY.md|memory_summary.md --line N) [--version v1|v2] [--project DIR] [--json]
      Moves an entry into its project's AGENTS.md: the rule added there, the entry removed, in one proposal.
  (All of these take --data-dir DIR.)

Where things are:
  Codex home   --codex-home, else $CODEX_HOME, else ~/.codex (SQLite: $CODEX_SQLITE_HOME, else the home)
  Studio data  --data-dir, else $MEMORY_STUDIO_DATA, else the platform's app-data folder`;

const commonOptions = {
  ...engineFlagOptions,
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  demo: { type: 'boolean' },
  serve: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  return port;
}

type HostValues = EngineFlags & { 'codex-home'?: string; 'data-dir'?: string; port?: string; demo?: boolean; serve?: boolean };

/** The home to open: the demo (generated on first use) with --demo, else --codex-home / CODEX_HOME / ~/.codex. */
async function chooseHome(values: HostValues): Promise<HomeChoice> {
  if (!values.demo) return resolveCodexHome({ flag: values['codex-home'] });
  console.log('Opening the demo Codex home (generated on first use) ...');
  return ensureDemoHome(resolveDataDir({ flag: values['data-dir'] }));
}

async function serve(values: HostValues, chosen?: HomeChoice): Promise<number> {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.error(`The UI is not built (${rendererDir} is missing). Run "npm run build" first.`);
    return 1;
  }
  const dataDir = resolveDataDir({ flag: values['data-dir'] });
  const home = chosen ?? (await chooseHome(values));
  for (const line of await engineFlags(dataDir, values)) console.log(line);
  const service = createStudioService({ home, dataDir, host: 'serve', appVersion: packageVersion() });
  const handle = await startServeHost({ service, rendererDir, port: parsePort(values.port) });
  console.log(`Memory Studio is serving ${home.codexHome}${home.source === 'demo' ? ' (demo)' : ''}`);
  printUnmasked(`Open: ${handle.url}`);
  console.log('Only this machine can connect (127.0.0.1), and only with the token in that URL. Press Ctrl+C to stop.');
  await new Promise<void>((resolvePromise) => {
    const stop = () => resolvePromise();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  service.dispose();
  await handle.close();
  return 0;
}

/** The engine flags applied to the data folder's settings; a bad value stops the start with its message (exit 2). */
async function engineFlags(dataDir: string, values: HostValues): Promise<string[]> {
  try {
    return await applyEngineFlags(dataDir, values);
  } catch (error) {
    const failure = toStudioError(error);
    throw new UsageError(`${failure.message}${failure.hint ? ` ${failure.hint}` : ''}`);
  }
}

async function start(values: HostValues): Promise<number> {
  if (values.serve || process.env.MEMORY_STUDIO_NO_ELECTRON) return serve(values);
  await engineFlags(resolveDataDir({ flag: values['data-dir'] }), values);
  const home = await chooseHome(values);
  const args = [`--codex-home=${home.codexHome}`];
  if (home.source === 'demo') args.push('--demo');
  if (values['data-dir']) args.push(`--data-dir=${resolve(values['data-dir'])}`);
  const result = await runElectron(args);
  if (result.started) return result.code;
  console.log(`Electron cannot start here: ${result.reason}. Serving the same UI for your browser instead.`);
  return serve(values, home);
}

async function demoHome(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { scale: { type: 'string' }, version: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const dir = positionals[0];
  if (!dir) throw new UsageError('demo-home needs a target folder: memory-studio demo-home DIR');
  const scale = values.scale ?? 'small';
  const version = values.version ?? 'both';
  if (scale !== 'small' && scale !== 'heavy') throw new UsageError(`--scale must be small or heavy, not "${scale}".`);
  if (version !== 'v1' && version !== 'v2' && version !== 'both') throw new UsageError(`--version must be v1, v2 or both, not "${version}".`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, not "${values.seed}".`);
  const { generateHome } = await import('../core/demo-home/index.js');
  const started = Date.now();
  const manifest = await generateHome({
    dir: resolve(dir),
    scale,
    version,
    seed,
    onProgress: values.json ? undefined : (phase, done, total) => process.stderr.write(`\r${phase}: ${done}/${total}   `),
  });
  if (values.json) console.log(JSON.stringify(manifest, null, 2));
  else {
    process.stderr.write('\n');
    console.log(`Wrote a ${scale} Codex home (${version}) to ${manifest.codexHome} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    console.log(`Open it: memory-studio start --codex-home ${manifest.codexHome}`);
  }
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  installMaskingConsole();
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return 0;
      case '--version':
      case 'version':
        console.log(packageVersion());
        return 0;
      case 'start':
      case 'serve': {
        const { values, positionals } = parseArgs({ args: rest, options: commonOptions, allowPositionals: true });
        if (values.help) {
          console.log(USAGE);
          return 0;
        }
        if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
        parsePort(values.port);
        return command === 'start' ? await start(values) : await serve(values);
      }
      case 'demo-home':
        return await demoHome(rest);
      case 'parse':
        return await parseCommand(rest);
      case 'inspect':
        return await inspectCommand(rest);
      case 'lint':
        return await lintCommand(rest);
      case 'secrets':
        return await secretsCommand(rest);
      case 'budget':
        return await budgetCommand(rest);
      case 'propose':
        return await proposeCommand(rest);
      case 'note':
        return await noteCommand(rest);
      case 'forget':
        return await forgetCommand(rest);
      case 'show':
        return await showCommand(rest);
      case 'apply':
        return await applyCommand(rest);
      case 'rebase':
        return await rebaseCommand(rest);
      case 'history':
        return await historyCommand(rest);
      case 'revert':
        return await revertCommand(rest);
      case 'consolidate':
        return await consolidateCommand(rest);
      case 'import':
        return await importCommand(rest);
      case 'doctor':
        return await doctorCommand(rest);
      case 'promote':
        return await promoteCommand(rest);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof CliUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}
