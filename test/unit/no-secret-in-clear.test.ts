// No secret in clear anywhere: one fresh secret of every family is planted in a generated home and in an import
// source, every output path runs as a user runs it (bin.cjs), and every output and the whole data folder are searched.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, openGeneratedHome, type GeneratedHomeService } from './helpers';
import { APP_KEY, makeClaudeHome } from './import/fixtures';
import { FAMILIES, sample } from './lint/secret-corpus';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));

/** The part of a secret no masked preview shows: 12 characters from its middle. */
const core = (secret: string) => secret.slice(Math.floor(secret.length / 2) - 6, Math.floor(secret.length / 2) + 6);

let home: GeneratedHomeService;
let cleanupSource: () => Promise<void>;
let claudeHome: string;
let dataDir: string;
const planted: Array<{ family: string; secret: string }> = [];

function leaks(text: string): string[] {
  return planted.filter((p) => text.includes(core(p.secret))).map((p) => p.family);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'both', seed: 14, git: false });
  const source = await makeTempDir();
  cleanupSource = source.cleanup;
  claudeHome = (await makeClaudeHome(source.dir)).claudeHome;
  dataDir = join(source.dir, 'data');
  const lines: string[] = [];
  for (const family of FAMILIES) {
    const s = sample(family);
    planted.push({ family: family.name, secret: s.secret });
    lines.push(`- ${family.name}:`, s.text.trimEnd(), '');
  }
  const block = `\n## Credentials seen in sessions\n${lines.join('\n')}\n`;
  // The summary is what the budget injects (and prints); MEMORY.md and an ad-hoc note are read by lint and parse.
  for (const version of ['memories', 'memories_v2']) await appendFile(join(home.manifest.codexHome, version, 'memory_summary.md'), block);
  await appendFile(join(home.root, 'MEMORY.md'), block);
  await writeFile(
    join(claudeHome, 'projects', APP_KEY, 'memory', 'credentials.md'),
    `---\nname: Credentials\ntype: reference\n---\n${block}`,
  );
}, 300_000);

afterAll(async () => {
  await home?.dispose();
  await cleanupSource?.();
});

describe.skipIf(!built)('one secret of every family, searched for in every output and the data folder', () => {
  const cli = (args: string[]) => {
    const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
    return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
  };

  it('the engine finds every planted secret (so the search below means something)', async () => {
    const scan = cli(['secrets', '--codex-home', home.manifest.codexHome, '--data-dir', dataDir, '--json']);
    expect(scan.status).toBe(1);
    const text = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    for (const p of planted) expect(text, p.family).toContain(p.secret);
    expect(planted).toHaveLength(FAMILIES.length);
  });

  it('CLI output of inspect, lint, budget, parse, secrets, import plan/apply, show, history and doctor holds none of them', () => {
    const h = ['--codex-home', home.manifest.codexHome, '--data-dir', dataDir];
    const importArgs = ['import', '--from', 'claude', '--source-home', claudeHome, ...h, `--project=${APP_KEY}`];
    const runs: Array<[string, string[]]> = [
      ['inspect --json', ['inspect', ...h, '--json']],
      ['inspect', ['inspect', ...h]],
      ['lint --json', ['lint', ...h, '--json']],
      ['lint', ['lint', ...h]],
      ['budget --json', ['budget', ...h, '--json']],
      ['budget --text', ['budget', ...h, '--text']],
      ['parse --json', ['parse', join(home.root, 'memory_summary.md'), '--json']],
      ['parse MEMORY.md', ['parse', join(home.root, 'MEMORY.md')]],
      ['secrets --json', ['secrets', ...h, '--json']],
      ['import --plan --json', [...importArgs, '--plan', '--json']],
      ['import --plan', [...importArgs, '--plan']],
      ['import --apply --redact-secrets --json', [...importArgs, '--apply', '--redact-secrets', '--json']],
      ['history --json', ['history', ...h, '--json']],
      ['doctor --json', ['doctor', ...h, '--json']],
      ['doctor', ['doctor', ...h]],
    ];
    const found: string[] = [];
    let proposalId: string | null = null;
    for (const [label, args] of runs) {
      const { status, output } = cli(args);
      expect(status === 0 || status === 1, `${label}: ${output.slice(0, 2000)}`).toBe(true);
      for (const family of leaks(output)) found.push(`${label}: ${family}`);
      const match = /"proposalId": "([^"]+)"/.exec(output);
      if (label.startsWith('import --apply') && match) proposalId = match[1] as string;
    }
    expect(proposalId).not.toBeNull();
    for (const [label, args] of [
      ['show --json', ['show', proposalId as string, ...h.slice(2), '--json']],
      ['show', ['show', proposalId as string, ...h.slice(2)]],
    ] as const) {
      const { output } = cli([...args]);
      for (const family of leaks(output)) found.push(`${label}: ${family}`);
    }
    expect(found).toEqual([]);
  });

  it('the data folder (studio.sqlite and its WAL, drafts, leases, journals) and the imported files hold none of them', () => {
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.endsWith('studio.sqlite'))).toBe(true);
    const imported = ['memories', 'memories_v2'].flatMap((r) =>
      filesUnder(join(home.manifest.codexHome, r, 'extensions', 'external_agent_import')),
    );
    expect(imported.some((f) => f.endsWith('credentials.md'))).toBe(true);
    const found: string[] = [];
    for (const file of [...files, ...imported]) {
      if (statSync(file).size > 64 << 20) continue;
      // Binary-safe: SQLite pages hold the text as UTF-8 bytes.
      for (const family of leaks(readFileSync(file).toString('latin1'))) found.push(`${file}: ${family}`);
    }
    expect(found).toEqual([]);
  });
});
