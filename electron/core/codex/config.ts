// Reads Codex's config.toml the way Codex does: `[features] memories` and `[memories]` with defaults and clamps.
import { parse, TomlError } from 'smol-toml';
import type { CodexConfig, Diagnostic, MemoriesConfig } from '../../../shared/domain';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { MEMORY_BOOL_KEYS, MEMORY_INT_KEYS, MEMORY_KEY_ALIASES, MEMORY_KEY_RENAMES, MEMORY_STRING_KEYS } from './constants';

/** Codex 0.169.0 uses v2 when `memories.version` is absent (docs/codex-facts.md, Default memory version). */
export const DEFAULT_MEMORY_VERSION = 'v2' as const;

export function defaultMemoriesConfig(): MemoriesConfig {
  const config: Record<string, unknown> = {
    version: DEFAULT_MEMORY_VERSION,
    versionSource: 'default',
    extractModel: null,
    consolidationModel: null,
    consolidationServiceTier: null,
  };
  for (const spec of Object.values(MEMORY_INT_KEYS)) config[spec.field] = spec.default;
  for (const spec of Object.values(MEMORY_BOOL_KEYS)) config[spec.field] = spec.default;
  return config as MemoriesConfig;
}

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function diag(severity: Diagnostic['severity'], rule: string, message: string, path: string, line?: number): Diagnostic {
  return { severity, rule, message, path, ...(line === undefined ? {} : { line }) };
}

/** The 1-based line of `key = ` inside `[memories]` or `[features]`, for pointing diagnostics at it. */
function lineOfKey(text: string, table: string, key: string): number | undefined {
  const lines = text.split(/\r?\n/);
  let inTable = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line.startsWith('[')) inTable = line.replace(/\s/g, '') === `[${table}]`;
    else if (inTable && new RegExp(`^["']?${key}["']?\\s*=`).test(line)) return i + 1;
    else if (new RegExp(`^${table}\\.${key}\\s*=`).test(line)) return i + 1;
  }
  return undefined;
}

function applyMemoriesTable(
  table: Record<string, unknown>,
  config: MemoriesConfig,
  text: string,
  path: string,
  diagnostics: Diagnostic[],
): void {
  const target = config as unknown as Record<string, unknown>;
  for (const [rawKey, value] of Object.entries(table)) {
    const key = MEMORY_KEY_ALIASES[rawKey] ?? rawKey;
    const line = lineOfKey(text, 'memories', rawKey);
    const wrongType = (expected: string) =>
      diagnostics.push(
        diag('error', 'config/type', `memories.${rawKey} must be ${expected}; Codex refuses to load this config.`, path, line),
      );
    if (key === 'version') {
      if (value === 'v1' || value === 'v2') {
        config.version = value;
        config.versionSource = 'config';
      } else wrongType('"v1" or "v2"');
    } else if (key in MEMORY_INT_KEYS) {
      const spec = MEMORY_INT_KEYS[key as keyof typeof MEMORY_INT_KEYS];
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        wrongType('a whole number');
        continue;
      }
      const clamped = Math.min(spec.max, Math.max(spec.min, value));
      if (clamped !== value) {
        diagnostics.push(
          diag(
            'warning',
            'config/clamped',
            `memories.${rawKey} = ${value} is outside ${spec.min}..${spec.max}; Codex uses ${clamped}.`,
            path,
            line,
          ),
        );
      }
      target[spec.field] = clamped;
    } else if (key in MEMORY_BOOL_KEYS) {
      if (typeof value !== 'boolean') wrongType('true or false');
      else target[MEMORY_BOOL_KEYS[key as keyof typeof MEMORY_BOOL_KEYS].field] = value;
    } else if (key in MEMORY_STRING_KEYS) {
      if (typeof value !== 'string') wrongType('a string');
      else target[MEMORY_STRING_KEYS[key as keyof typeof MEMORY_STRING_KEYS].field] = value;
    } else if (rawKey in MEMORY_KEY_RENAMES) {
      // Codex 0.169.0 ignores it with a start-up warning (and refuses it under --strict-config): the setting has no effect.
      diagnostics.push(
        diag(
          'warning',
          'config/renamed-key',
          `memories.${rawKey} was renamed to ${MEMORY_KEY_RENAMES[rawKey]} in Codex 0.110.0; Codex ignores the old name, so the setting has no effect. Rename it.`,
          path,
          line,
        ),
      );
    } else {
      diagnostics.push(
        diag(
          'warning',
          'config/unknown-key',
          `memories.${rawKey} is not a key Codex knows; Codex ignores it (it warns at start, and refuses to start with --strict-config). Check the spelling.`,
          path,
          line,
        ),
      );
    }
  }
}

/** Parses config text; never throws on content: problems become diagnostics and defaults stay in force. */
export function parseCodexConfig(text: string, path: string, exists = true): CodexConfig {
  const diagnostics: Diagnostic[] = [];
  const memories = defaultMemoriesConfig();
  let featureMemories: boolean | null = null;
  let doc: Record<string, unknown> = {};
  try {
    doc = parse(text);
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    diagnostics.push(
      diag(
        'error',
        'config/syntax',
        `config.toml is not valid TOML (${detail}); Codex will not start until it is fixed. Memory Studio shows Codex's defaults.`,
        path,
        line,
      ),
    );
    return { path, exists, featureMemories, memories, sqliteHome: null, diagnostics };
  }
  const sqliteHome = readSqliteHome(doc, text, path, diagnostics);
  const features = doc.features;
  if (isTable(features)) {
    for (const key of ['memories', 'memory_tool'] as const) {
      const value = features[key];
      if (value === undefined) continue;
      if (typeof value === 'boolean') featureMemories = value;
      else diagnostics.push(diag('error', 'config/type', `features.${key} must be true or false.`, path, lineOfKey(text, 'features', key)));
      if (key === 'memory_tool') {
        diagnostics.push(
          diag(
            'info',
            'config/legacy-feature',
            'features.memory_tool is the older name of features.memories.',
            path,
            lineOfKey(text, 'features', key),
          ),
        );
      }
    }
  }
  if (doc.memories !== undefined) {
    if (isTable(doc.memories)) applyMemoriesTable(doc.memories, memories, text, path, diagnostics);
    else diagnostics.push(diag('error', 'config/type', '`memories` must be a table ([memories]).', path));
  }
  if (featureMemories !== true) {
    diagnostics.push(
      diag(
        'info',
        'config/feature-off',
        'The memories feature is not switched on ([features] memories = true), so Codex neither writes nor reads these memories.',
        path,
      ),
    );
  }
  return { path, exists, featureMemories, memories, sqliteHome, diagnostics };
}

/** Top-level `sqlite_home`: where Codex keeps its SQLite files (it wins over CODEX_SQLITE_HOME). */
function readSqliteHome(doc: Record<string, unknown>, text: string, path: string, diagnostics: Diagnostic[]): string | null {
  const value = doc.sqlite_home;
  if (value === undefined) return null;
  if (typeof value === 'string' && value.trim() !== '') return value;
  const line = text.split(/\r?\n/).findIndex((l) => /^\s*sqlite_home\s*=/.test(l));
  diagnostics.push(
    diag(
      'error',
      'config/type',
      'sqlite_home must be a folder path (a string); Codex refuses to load this config.',
      path,
      line >= 0 ? line + 1 : undefined,
    ),
  );
  return null;
}

export async function readCodexConfig(path: string): Promise<CodexConfig> {
  let text: string;
  try {
    // Followed when it is a symlink (dotfile managers link it; Codex follows it), but never a FIFO: it is refused.
    text = (await readRegularFile(path, path, NO_CAP, undefined, { follow: true })).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return parseCodexConfig('', path, false);
    const config = parseCodexConfig('', path, true);
    config.diagnostics.unshift(diag('error', 'config/unreadable', `config.toml cannot be read (${(error as Error).message}).`, path));
    return config;
  }
  return parseCodexConfig(text, path);
}
