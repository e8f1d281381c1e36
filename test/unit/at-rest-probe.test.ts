// The at-rest probe (issue 30): a fresh secret of every family planted through every path that stores texts, then every
// byte of every file under the data folder searched for each one, raw; prints its figures (tries, clean, defects).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSecrets } from '../../electron/core/lint';
import { createProposal } from '../../electron/core/review';
import { openStudioDb } from '../../electron/core/studio-db';
import { createStudioService, type StudioService } from '../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../fixtures';
import { notPrivate, secretsAtRest } from './at-rest-bytes';
import { makeTempDir, until } from './helpers';
import { APP_KEY, makeClaudeHome } from './import/fixtures';
import { FAMILIES, sample } from './lint/secret-corpus';

const repo = resolve(__dirname, '..', '..');
const bin = join(repo, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(repo, 'out', 'electron', 'host', 'cli.js'));

interface Planted {
  path: string;
  family: string;
  secret: string;
}

const planted: Planted[] = [];
const logLines: string[] = [];
let consolidation = '';
let temp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let dataDir: string;
let root: string;
let service: StudioService;

/** A block holding one fresh secret of every family, each in its own words, all recorded under `path` (unless `record` is off). */
function secretsBlock(path: string, record = true): string {
  const lines: string[] = [];
  for (const family of FAMILIES) {
    const s = sample(family);
    if (record) planted.push({ path, family: family.name, secret: s.secret });
    lines.push(`- ${family.name}:`, s.text.trimEnd(), '');
  }
  return `\n## Credentials seen in sessions (${path})\n${lines.join('\n')}\n`;
}

async function acceptAll(id: string): Promise<void> {
  const proposal = await service.call('review.get', { id });
  await service.call('review.decide', {
    id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
}

/** A file in the v1 root holding the block, and a proposal editing another line of it. */
async function proposeBeside(path: string, file: string): Promise<string> {
  const text = `# ${path}\n- first line\n${secretsBlock(path)}`;
  await writeFile(join(root, file), text);
  const proposal = await service.call('review.propose', {
    version: 'v1',
    path: file,
    content: text.replace('- first line', '- first line, edited'),
  });
  return proposal.id;
}

const cli = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });

/** Every path that stores texts, in the order a person meets them. Each plants its own fresh secrets. */
const paths: Record<string, () => Promise<void>> = {
  propose: async () => {
    await proposeBeside('propose', 'probe-propose.md');
  },
  apply: async () => {
    const id = await proposeBeside('apply', 'probe-apply.md');
    await acceptAll(id);
    await service.call('review.apply', { id });
  },
  revert: async () => {
    const id = await proposeBeside('revert', 'probe-revert.md');
    await acceptAll(id);
    const applied = await service.call('review.apply', { id });
    const revert = await service.call('history.revert', { entryId: applied.entry.id });
    await acceptAll(revert.id);
    await service.call('review.apply', { id: revert.id });
  },
  rebase: async () => {
    const id = await proposeBeside('rebase', 'probe-rebase.md');
    const file = join(root, 'probe-rebase.md');
    await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n${secretsBlock('rebase (outside)')}`);
    await service.call('review.rebase', { id });
  },
  'delete to trash': async () => {
    const text = `# delete\n${secretsBlock('delete to trash')}`;
    await writeFile(join(root, 'probe-delete.md'), text);
    const db = openStudioDb(dataDir);
    const proposal = await createProposal(db, {
      title: 'Delete probe-delete.md',
      source: 'edit',
      files: [{ version: 'v1', root, relPath: 'probe-delete.md', proposedContent: null }],
    });
    db.close();
    await acceptAll(proposal.id);
    await service.call('review.apply', { id: proposal.id });
  },
  'redact (CLI redact + apply)': async () => {
    await writeFile(join(root, 'probe-redact.md'), `# redact\n${secretsBlock('redact (CLI redact + apply)')}`);
    const h = ['--codex-home', manifest.codexHome, '--data-dir', dataDir];
    const made = cli(['redact', ...h, '--version', 'v1', '--file', 'probe-redact.md', '--json']);
    expect(made.status, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const applied = cli(['apply', id, ...h, '--accept', 'all', '--json']);
    expect(applied.status, applied.stderr).toBe(0);
  },
  'note (refused)': async () => {
    const refused = await service.dispatch('review.note', { version: 'v1', slug: 'probe-note', text: secretsBlock('note (refused)') });
    expect(refused.ok).toBe(false);
  },
  'external change (watcher)': async () => {
    const file = join(root, 'memory_summary.md');
    await writeFile(file, `${await readFile(file, 'utf8')}${secretsBlock('external change (watcher)')}`);
    await until('the external history entry', async () =>
      (await service.call('history.list', { path: 'memory_summary.md' })).some((e) => e.kind === 'external'),
    );
  },
  index: async () => {
    await writeFile(join(root, 'probe-index.md'), `# index\n${secretsBlock('index')}`);
    await service.call('search.query', { query: 'credentials' });
  },
  'consolidation (builtin engine)': async () => {
    await mkdir(join(root, 'extensions', 'ad_hoc', 'notes'), { recursive: true });
    const note = join(root, 'extensions', 'ad_hoc', 'notes', '2026-05-01T10-00-00-probe-credentials.md');
    await writeFile(note, `# Credentials\n${secretsBlock('consolidation (builtin engine)')}`);
    const started = await service.call('consolidate.start', { version: 'v1', engine: 'builtin' });
    const run = await service.consolidation().settled(started.id);
    logLines.push(...run.log, run.message);
    consolidation = `${run.state}: ${run.message}`;
  },
  'import with redact choice (CLI)': async () => {
    await mkdir(join(temp.dir, 'source'), { recursive: true });
    const { claudeHome } = await makeClaudeHome(join(temp.dir, 'source'));
    await writeFile(
      join(claudeHome, 'projects', APP_KEY, 'memory', 'credentials.md'),
      `---\nname: Credentials\ntype: reference\n---\n${secretsBlock('import with redact choice (CLI)')}`,
    );
    const args = [
      'import',
      '--from',
      'claude',
      '--source-home',
      claudeHome,
      '--codex-home',
      manifest.codexHome,
      '--data-dir',
      dataDir,
      `--project=${APP_KEY}`,
    ];
    const result = cli([...args, '--apply', '--redact-secrets', '--json']);
    expect(result.status, result.stderr).toBe(0);
  },
  "a killed consolidation's staging": async () => {
    await writeFile(join(root, 'probe-staging.md'), `# staging\n${secretsBlock("a killed consolidation's staging")}`);
    const child = spawn(process.execPath, [join(__dirname, 'service', 'consolidate-child.cjs'), manifest.codexHome, dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolveStaged, reject) => {
      const timer = setTimeout(() => reject(new Error(`no staging within 60 s: ${out}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (!out.includes('staged ') && !out.includes('failed ')) return;
        clearTimeout(timer);
        if (out.includes('failed ')) reject(new Error(out));
        else resolveStaged();
      });
    });
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
    // The next process to start (here a CLI command) removes the dead run's copy.
    const next = cli(['history', '--codex-home', manifest.codexHome, '--data-dir', dataDir, '--json']);
    expect(next.status, next.stderr).toBe(0);
  },
};

beforeAll(async () => {
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v1', seed: 33, git: true });
  root = join(manifest.codexHome, 'memories');
  dataDir = join(temp.dir, 'data');
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: true,
    // As the CLI does: a consolidation's proposal does not keep Codex's lease, so the later paths can take it.
    holdConsolidationLease: false,
    log: (line) => logLines.push(line),
  });
  await service.call('home.get', {});
  await service.historySnapshot().settled; // The watcher's path below needs the "before" of memory_summary.md.
}, 120_000);

afterAll(async () => {
  await service?.shutdown();
  await temp?.cleanup();
});

describe.skipIf(!built)('at-rest probe: every family through every path, every byte of the data folder searched', () => {
  it('finds no secret at rest, in no log line, and no file or folder others can read', async () => {
    for (const [path, plant] of Object.entries(paths))
      await plant().catch((error: unknown) => {
        throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      });
    // The search means something: the engine finds a secret of every family in such a block.
    expect(scanSecrets(secretsBlock('engine check', false)).length).toBeGreaterThanOrEqual(FAMILIES.length);

    const found = new Set(
      secretsAtRest(
        dataDir,
        planted.map((p) => ({ label: `${p.path} / ${p.family}`, secret: p.secret })),
      ).map((f) => f.split(': ').slice(1).join(': ')),
    );
    const inLogs = planted.filter((p) => logLines.some((line) => line.includes(p.secret)));
    const open = notPrivate(dataDir);
    const tries = planted.length + planted.length + 1;
    const defects = found.size + inLogs.length + (open.length > 0 ? 1 : 0);
    const plantings = new Set(planted.map((p) => p.path)).size;
    const figures = `at-rest probe: ${Object.keys(paths).length} paths (${plantings} plantings) x ${FAMILIES.length} families = ${planted.length} secrets; tries ${tries} (data folder bytes ${planted.length}, log lines ${planted.length}, modes 1), clean ${tries - defects}, defects ${defects}`;
    console.log(`${figures}\nconsolidation run: ${consolidation}`);
    expect([...found], figures).toEqual([]);
    expect(inLogs.map((p) => `${p.path} / ${p.family}`)).toEqual([]);
    expect(open).toEqual([]);
    expect(existsSync(join(dataDir, 'studio.sqlite'))).toBe(true);
  });
});
