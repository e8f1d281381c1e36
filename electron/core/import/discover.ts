// Detection entry: which source to read, with which homes and options, and the summary the wizard's first steps show.
import type { Detection, ImportSource, ImportSourceOptions } from '../../../shared/import';
import { discoverClaude, KEY_ENCODING_NOTE, REPO_SETTING_KEY_PREFIX } from './claude';
import { CURSOR_KEY_PREFIX, CURSOR_RULES_KEY_PREFIX, discoverCursor } from './cursor';
import type { EarlierImports } from './earlier';
import { SYNC_KEY_PREFIX } from './instructions';
import { WalkBudget, type WalkLimits } from './read-source';
import { defaultCursorStateDb, defaultManagedSettingsDir, resolveSourceHome, type Discovery, type DiscoveryDeps } from './sources';

export interface ImportEnv {
  env?: NodeJS.ProcessEnv;
  /** Where earlier imports came from (the Studio DB's provenance); without it nothing earlier counts as this source's own. */
  earlier?: EarlierImports;
  /** Claude's managed settings folder (`/etc/claude-code` on Linux); tests point it elsewhere. */
  managedSettingsDir?: string;
  platform?: NodeJS.Platform;
  /** Bounds of the discovery's walks; tests make them small. */
  walkLimits?: Partial<WalkLimits>;
  /** The caller's: when it gives up (a superseded plan, a closed page), listing and reading stop and it is Cancelled. */
  signal?: AbortSignal;
  /**
   * Set by a long-lived host (the app, serve), whose main loop must keep answering: the plan's secret scan and lint run
   * on the worker pool and its own per-project work yields turns. A one-shot command runs them in its thread: on two
   * cores, the workers' start and cold code cost a 10,000-file plan more than they saved (2.2-2.5 s either way).
   * Only `false` (said by a one-shot command) reads the sources synchronously; unset keeps the reads off the loop.
   */
  sharedLoop?: boolean;
}

export function discoveryDeps(deps: ImportEnv): DiscoveryDeps {
  const env = deps.env ?? process.env;
  const platform = deps.platform ?? process.platform;
  return {
    env,
    platform,
    managedSettingsDir: deps.managedSettingsDir ?? defaultManagedSettingsDir(platform, env),
    walk: new WalkBudget(deps.walkLimits, Date.now, deps.signal, deps.sharedLoop !== false),
  };
}

export async function discover(input: ImportSourceOptions, deps: ImportEnv): Promise<Discovery> {
  const d = discoveryDeps(deps);
  const repos = input.repos ?? [];
  if (input.from === 'claude') return discoverClaude(resolveSourceHome(input.sourceHome, d.env, 'CLAUDE_CONFIG_DIR', '.claude'), repos, d);
  const stateDb = input.cursorStateDb ?? defaultCursorStateDb(d.platform, d.env);
  return discoverCursor(resolveSourceHome(input.sourceHome, d.env, null, '.cursor'), repos, stateDb, d);
}

/** Whether a key under `resources/` belongs to this source (so a key whose source disappeared is removed by it). */
export function ownsKey(from: ImportSource, key: string): boolean {
  if (key.startsWith(SYNC_KEY_PREFIX)) return false;
  return from === 'cursor' ? key.startsWith(CURSOR_KEY_PREFIX) : !key.startsWith(CURSOR_KEY_PREFIX);
}

/** Keys read from a picked repository (its own autoMemoryDirectory, its Cursor rules): unknowable unless it is picked. */
export function dependsOnRepo(from: ImportSource, key: string): boolean {
  return from === 'cursor' ? key.startsWith(CURSOR_RULES_KEY_PREFIX) : key.startsWith(REPO_SETTING_KEY_PREFIX);
}

export function toDetection(d: Discovery): Detection {
  return {
    from: d.from,
    homes: d.homes,
    projects: d.projects.map((p) => ({
      key: p.key,
      cwd: p.cwd,
      cwdSource: p.cwdSource,
      sourceDir: p.sourceDir,
      origin: p.origin,
      fileCount: p.files.length + p.skippedCount,
      importableCount: p.files.length,
      skippedCount: p.skippedCount,
      bytes: p.files.reduce((n, f) => n + f.size, 0),
    })),
    skipped: d.skipped,
    keyEncodingNote:
      d.from === 'claude'
        ? KEY_ENCODING_NOTE
        : `Cursor keys are ours: "${CURSOR_KEY_PREFIX}<folder>" for ~/.cursor/projects/<folder>/memory, "${CURSOR_KEY_PREFIX}user-rules" for User Rules and "${CURSOR_KEY_PREFIX}rules-<encoded repo path>" for a repository's rules; the folder names are never decoded.`,
    messages: d.messages,
  };
}

export async function detectImport(input: ImportSourceOptions, deps: ImportEnv = {}): Promise<Detection> {
  return toDetection(await discover(input, deps));
}
