#!/usr/bin/env node
// Captures the SQLite schemas and migration records of a home made by the real Codex CLI into a data module.
//
// Run it again whenever the pinned Codex changes: `node scripts/capture-codex-schema.mjs`. It installs the test-only
// Codex CLI (test/interop/codex-cli), starts it once in a temporary CODEX_HOME with memories on (no model is needed:
// the databases are created and migrated before the first request), and writes
// electron/core/codex-schema/codex-<version>.ts, which the demo-home generator and the health report read.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { CODEX_VERSION, codexBinaryPath, installedVersion } from '../test/interop/install-codex.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(repo, 'electron', 'core', 'codex-schema', `codex-${CODEX_VERSION}.ts`);

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

function ensureCodex() {
  if (installedVersion() === `codex-cli ${CODEX_VERSION}`) return;
  const result = spawnSync(process.execPath, [join(repo, 'test', 'interop', 'install-codex.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(1);
}

function runCodexOnce(codexHome, work, port, version) {
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
    `version = "${version}"`,
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
  // Asynchronous on purpose: the model server answering it lives in this process.
  return new Promise((resolve, reject) => {
    const child = spawn(codexBinaryPath(), ['exec', '--skip-git-repo-check', 'capture the schema'], {
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

/** Every schema object with its SQL, in creation order (rowid), the sqlx migration records and the seed rows. */
function captureDb(file, name) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
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

async function main() {
  ensureCodex();
  const base = mkdtempSync(join(tmpdir(), 'codex-schema-capture-'));
  try {
    const model = await startModel();
    const { port } = model.address();
    const databases = {};
    for (const version of ['v2', 'v1']) {
      const codexHome = join(base, version, 'codex-home');
      const work = join(base, version, 'work');
      mkdirSync(codexHome, { recursive: true });
      mkdirSync(work, { recursive: true });
      await runCodexOnce(codexHome, work, port, version);
      for (const name of readdirSync(codexHome)
        .filter((n) => n.endsWith('.sqlite'))
        .sort()) {
        if (databases[name]) continue;
        databases[name] = captureDb(join(codexHome, name), name);
      }
    }
    model.close();
    for (const required of ['state_5.sqlite', 'memories_1.sqlite', 'memories_v2_1.sqlite']) {
      if (!databases[required]) throw new Error(`Codex ${CODEX_VERSION} did not create ${required}; nothing written.`);
    }
    const data = { codexVersion: CODEX_VERSION, databases };
    const text = [
      `// Generated by scripts/capture-codex-schema.mjs from a home the real Codex CLI ${CODEX_VERSION} made. Do not edit by hand:`,
      '// run the script again when the pinned Codex changes. Each database: its pragmas, its schema objects in creation order',
      '// and its sqlx migration records (checksums as hex, exactly as Codex stored them).',
      "import type { CodexSchemaCapture } from './types';",
      '',
      `export const CODEX_${CODEX_VERSION.replace(/\W/g, '_')}_SCHEMA: CodexSchemaCapture = ${JSON.stringify(data, null, 2)};`,
      '',
    ].join('\n');
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, text);
    console.log(`Wrote ${outFile} (${Object.keys(databases).length} databases).`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

if (!existsSync(join(repo, 'node_modules', 'better-sqlite3'))) {
  console.error('Run npm install first (the script reads the databases with better-sqlite3).');
  process.exit(1);
}
await main();
