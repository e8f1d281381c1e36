#!/usr/bin/env node
// Captures the SQLite schemas and migration records of a home made by the real Codex CLI.
//
//   node scripts/capture-codex-schema.mjs [VERSION]
//
// installs that Codex (default: the reference, test/interop/install-codex.mjs), starts it once per memory version in a
// temporary CODEX_HOME with memories on against a local model that ends every turn at once, and writes
// electron/core/codex-schema/codex-<VERSION>.ts, which the demo-home generator and the health report read.
// `npm run compat` (scripts/compat.mjs) calls captureCodexSchema for every version it verifies.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_CODEX_VERSION,
  codexBinaryPath,
  installCodex,
  installedVersion,
  isCodexVersion,
  listedCodexVersions,
} from '../test/interop/install-codex.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The data module of one version's capture. */
export function schemaModulePath(version) {
  return join(repo, 'electron', 'core', 'codex-schema', `codex-${version}.ts`);
}

/** A model endpoint that ends every turn at once with a short message, so `codex exec` finishes. */
async function startModel() {
  const events = (id) => [
    { type: 'response.created', response: { id } },
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: { type: 'message', role: 'assistant', id, content: [{ type: 'output_text', text: 'ok', annotations: [] }] },
    },
    {
      type: 'response.completed',
      response: {
        id,
        usage: { input_tokens: 1, input_tokens_details: null, output_tokens: 1, output_tokens_details: null, total_tokens: 2 },
      },
    },
  ];
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events(`m${++n}`)) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function runCodexOnce(bin, codexHome, work, port, memoryVersion) {
  const config = [
    'model = "capture-model"',
    'model_provider = "capture"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '[model_providers.capture]',
    'name = "capture"',
    `base_url = "http://127.0.0.1:${port}/v1"`,
    'wire_api = "responses"',
    'env_key = "CAPTURE_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'supports_websockets = false',
    '[features]',
    'memories = true',
    '[memories]',
    `version = "${memoryVersion}"`,
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
  // Asynchronous on purpose: the model server answering it lives in this process.
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['exec', '--skip-git-repo-check', 'capture the schema'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: dirname(codexHome), CODEX_HOME: codexHome, CAPTURE_API_KEY: 'capture' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`codex exec exited with ${code}; nothing written.\n${stderr}`));
    });
  });
}

/**
 * Rows Codex puts in a fresh home itself (by a migration, or at its first start) that a home it has run in always has:
 * the singleton consolidation progress, the built-in "Pinned" thread section, the finished session backfill.
 */
const SEED_TABLES = {
  'state_5.sqlite': ['thread_sections', 'backfill_state'],
  'memories_1.sqlite': ['consolidation_progress'],
  'memories_v2_1.sqlite': ['consolidation_progress'],
};

/** Opens a database read-only (better-sqlite3 is loaded only when a capture runs: `npm install` provides it). */
async function openReadOnly(file) {
  const { default: Database } = await import('better-sqlite3');
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** Every schema object with its SQL, in creation order (rowid), the sqlx migration records and the seed rows. */
async function captureDb(file, name) {
  const db = await openReadOnly(file);
  try {
    const objects = db
      .prepare(
        "SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
      )
      .all();
    const migrations = db
      .prepare(
        'SELECT version, description, success, hex(checksum) AS checksum, execution_time AS executionTime FROM _sqlx_migrations ORDER BY version',
      )
      .all()
      .map((m) => ({ ...m, success: m.success === 1 }));
    const pragmas = {
      autoVacuum: db.pragma('auto_vacuum', { simple: true }),
      userVersion: db.pragma('user_version', { simple: true }),
      pageSize: db.pragma('page_size', { simple: true }),
    };
    const seedRows = {};
    for (const table of SEED_TABLES[name] ?? []) seedRows[table] = db.prepare(`SELECT * FROM "${table}"`).all();
    return { pragmas, objects, migrations, seedRows };
  } finally {
    db.close();
  }
}

/** Values that differ in every run (ids, times, paths of the temporary home): kept as their kind, not their value. */
function normalized(value, key) {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return /(_at|_ms|timestamp|tokens_used)$/.test(key) ? '<number>' : value;
  if (typeof value === 'string') {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return '<uuid>';
    if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return '<timestamp>';
    if (value.startsWith('/') || /^[A-Za-z]:\\/.test(value)) return '<path>';
    return value.length > 120 ? `<text, ${value.length} characters>` : value;
  }
  if (Array.isArray(value)) return value.map((v) => normalized(v, key));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalized(v, k)]));
}

/** What the session `codex exec` ran records: its `threads` row and its rollout's `session_meta` payload. */
async function captureSession(codexHome) {
  const db = await openReadOnly(join(codexHome, 'state_5.sqlite'));
  let thread;
  try {
    thread = db.prepare('SELECT * FROM threads ORDER BY created_at_ms DESC LIMIT 1').get();
  } finally {
    db.close();
  }
  if (!thread) throw new Error('codex exec recorded no thread in state_5.sqlite; nothing written.');
  const first = readFileSync(thread.rollout_path, 'utf8').split('\n')[0];
  const meta = JSON.parse(first);
  return { threadRow: normalized(thread, ''), sessionMeta: normalized(meta.payload ?? {}, ''), sessionMetaLineKeys: Object.keys(meta) };
}

/**
 * Runs Codex `version` (installed) in two fresh homes (memories v2, then v1) and returns every SQLite file it made,
 * keyed by name, plus what its session recorded. Throws when the binary is missing or a required DB is not created.
 */
export async function captureCodexSchema(version) {
  if (installedVersion(version) !== `codex-cli ${version}`) throw new Error(`Codex ${version} is not installed.`);
  const bin = codexBinaryPath(version);
  const base = mkdtempSync(join(tmpdir(), 'codex-schema-capture-'));
  const model = await startModel();
  try {
    const { port } = model.address();
    const databases = {};
    let session = null;
    for (const memoryVersion of ['v2', 'v1']) {
      const codexHome = join(base, memoryVersion, 'codex-home');
      const work = join(base, memoryVersion, 'work');
      mkdirSync(codexHome, { recursive: true });
      mkdirSync(work, { recursive: true });
      await runCodexOnce(bin, codexHome, work, port, memoryVersion);
      session ??= await captureSession(codexHome);
      for (const name of readdirSync(codexHome)
        .filter((n) => n.endsWith('.sqlite'))
        .sort()) {
        if (databases[name]) continue;
        databases[name] = await captureDb(join(codexHome, name), name);
      }
    }
    for (const required of ['state_5.sqlite', 'memories_1.sqlite', 'memories_v2_1.sqlite']) {
      if (!databases[required]) throw new Error(`Codex ${version} did not create ${required}; nothing written.`);
    }
    return { codexVersion: version, databases, session };
  } finally {
    model.close();
    rmSync(base, { recursive: true, force: true });
  }
}

/** The TypeScript data module of a capture (its databases only: what the app reads). */
export function schemaModuleText(capture) {
  const data = { codexVersion: capture.codexVersion, databases: capture.databases };
  return [
    `// Generated by scripts/capture-codex-schema.mjs from a home the real Codex CLI ${capture.codexVersion} made. Do not edit by hand:`,
    '// run the script again when the pinned Codex changes. Each database: its pragmas, its schema objects in creation order',
    '// and its sqlx migration records (checksums as hex, exactly as Codex stored them).',
    "import type { CodexSchemaCapture } from './types';",
    '',
    `export const CODEX_${capture.codexVersion.replace(/\W/g, '_')}_SCHEMA: CodexSchemaCapture = ${JSON.stringify(data, null, 2)};`,
    '',
  ].join('\n');
}

async function main(args) {
  const version = args[0] ?? DEFAULT_CODEX_VERSION;
  if (!isCodexVersion(version)) throw new Error(`Not a Codex version: ${JSON.stringify(version)} (expected e.g. 0.171.0).`);
  if (!listedCodexVersions().includes(version))
    throw new Error(`Codex ${version} is not listed in test/interop: run "npm run compat -- ${version}" to add and verify it.`);
  if (!existsSync(join(repo, 'node_modules', 'better-sqlite3')))
    throw new Error('Run npm install first (the script reads the databases with better-sqlite3).');
  if (!installCodex(version)) throw new Error(`Codex ${version} could not be installed; nothing written.`);
  const capture = await captureCodexSchema(version);
  const out = schemaModulePath(version);
  writeFileSync(out, schemaModuleText(capture));
  console.log(`Wrote ${out} (${Object.keys(capture.databases).length} databases).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
