// No secret reaches an engine: the openai engine (a real HTTP server on 127.0.0.1 capturing every request) and the codex
// engine (a fake `codex` recording everything it can read in its folder) see `[REDACTED_SECRET]` where a live file,
// the git baseline or Codex's stage-1 output held a secret; a file the engine left alone is no hunk, a changed one
// proposes the placeholder.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../shared/consolidate';
import type { Hunk } from '../../../shared/review';
import { defaultEngineSettings, saveEngineSettings } from '../../../electron/core/consolidate/engine-settings';
import { commitBaseline } from '../../../electron/core/demo-home/writer';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import type { Engine } from '../../../electron/core/consolidate/types';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome } from '../../fixtures';
import { secretsAtRest } from '../at-rest-bytes';
import { makeTempDir } from '../helpers';
import { rand } from '../lint/secret-corpus';

const R = '[REDACTED_SECRET]';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz${DIGITS}`;
const B64 = `${ALNUM}+/`;
const KNOWLEDGE = '## Reusable knowledge\n\n';
const ENGINE_LINE = '- the smoke tests run after every deploy\n';

// Assembled at run time: the repository holds no token-shaped literal.
const privateKey = (kind: string) => {
  const body = (
    randomBytes(600)
      .toString('base64')
      .match(/.{1,64}/g) as string[]
  ).join('\n');
  return { block: `-----BEGIN ${kind} PRIVATE KEY-----\n${body}\n-----END ${kind} PRIVATE KEY-----`, lines: body.split('\n') };
};

interface Planted {
  codexHome: string;
  root: string;
  dataDir: string;
  note: string;
  skill: string;
  /** Each secret with its family, the private keys as each line of their body. */
  secrets: Array<{ label: string; secret: string }>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A v1 home whose note, MEMORY.md, memory_summary.md and a skill hold keys of several families, all in Codex's git
 * baseline; after it, a hand edit next to MEMORY.md's token and a new note with a Slack token; and a private key in the
 * newest stage-1 output's rollout summary (Codex's DB).
 */
async function plantedHome(): Promise<Planted> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v1', seed: 7, git: false, now: new Date() });
  const root = join(manifest.codexHome, 'memories');
  const awsId = `AKIA${rand(`${UPPER}234567`, 16)}`;
  const awsSecret = rand(B64, 40);
  const github = `ghp_${rand(ALNUM, 36)}`;
  const slack = () => `xoxb-${rand(DIGITS, 12)}-${rand(DIGITS, 13)}-${rand(ALNUM, 24)}`;
  const [slackNote, slackSummary, slackLater] = [slack(), slack(), slack()];
  const skillKey = privateKey('OPENSSH');
  const summaryKey = privateKey('RSA');
  const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/:/g, '-');
  const note = `extensions/ad_hoc/notes/${stamp(new Date(Date.now() - 7200_000))}-deploy-creds.md`;
  await mkdir(join(root, 'extensions/ad_hoc/notes'), { recursive: true });
  await writeFile(
    join(root, note),
    `# Deploy credentials\n\n- staging deploys use AWS key ${awsId}\n- aws secret: ${awsSecret}\n- alerts post with ${slackNote}\n`,
  );
  const memory = await readFile(join(root, 'MEMORY.md'), 'utf8');
  await writeFile(join(root, 'MEMORY.md'), memory.replace(KNOWLEDGE, `${KNOWLEDGE}- CI pushes with ${github}\n`));
  await writeFile(
    join(root, 'memory_summary.md'),
    `${await readFile(join(root, 'memory_summary.md'), 'utf8')}\n- the ops bot posts with ${slackSummary}\n`,
  );
  const skill = 'skills/deploy-keys/SKILL.md';
  await mkdir(join(root, 'skills/deploy-keys'), { recursive: true });
  await writeFile(
    join(root, skill),
    `---\nname: deploy-keys\ndescription: deploy with the key\n---\n\n# Deploy keys\n\ndeploy key:\n${skillKey.block}\n`,
  );
  // Codex's baseline holds every one of them: the workspace diff is made against it.
  await commitBaseline(root, new Date(Date.now() - 3600_000));
  // A hand edit next to the token (the diff shows the token's line as context) and a note added since.
  const withToken = await readFile(join(root, 'MEMORY.md'), 'utf8');
  await writeFile(join(root, 'MEMORY.md'), withToken.replace(`${github}\n`, `${github}\n- CI also runs the smoke tests\n`));
  const later = `extensions/ad_hoc/notes/${stamp(new Date(Date.now() - 60_000))}-alerts.md`;
  await writeFile(join(root, later), `# Alerts\n\n- the pager bot uses ${slackLater}\n`);
  // Codex's stage-1 output of the newest thread holds a private key its own four patterns miss.
  const db = openSqlite(join(manifest.codexHome, 'memories_1.sqlite'));
  db.prepare(
    'UPDATE stage1_outputs SET rollout_summary = rollout_summary || ? WHERE thread_id = (SELECT thread_id FROM stage1_outputs ORDER BY source_updated_at DESC LIMIT 1)',
  ).run(`\n\nThe deploy used this key:\n${summaryKey.block}\n`);
  db.close();
  const secrets = [
    { label: 'AWS key id', secret: awsId },
    { label: 'AWS secret', secret: awsSecret },
    { label: 'GitHub token', secret: github },
    { label: 'Slack token (note)', secret: slackNote },
    { label: 'Slack token (summary)', secret: slackSummary },
    { label: 'Slack token (note added since the baseline)', secret: slackLater },
    ...skillKey.lines.map((line, i) => ({ label: `private key (skill) line ${i + 1}`, secret: line })),
    ...summaryKey.lines.map((line, i) => ({ label: `private key (rollout summary) line ${i + 1}`, secret: line })),
  ];
  return { codexHome: manifest.codexHome, root, dataDir: join(temp.dir, 'data'), note, skill, secrets };
}

function serviceOn(home: Planted, env: NodeJS.ProcessEnv, engines?: Partial<Record<'codex' | 'openai', Engine>>): StudioService {
  const svc = createStudioService({
    home: { codexHome: home.codexHome, source: 'flag' },
    dataDir: home.dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    env,
    engines,
  });
  cleanups.push(async () => {
    svc.dispose();
    await new Promise((r) => setTimeout(r, 50));
  });
  return svc;
}

async function run(svc: StudioService, engine: 'codex' | 'openai'): Promise<RunStatus> {
  const started = await svc.call('consolidate.start', { version: 'v1', engine });
  return svc.consolidation().settled(started.id);
}

/** Which planted secrets occur in `text`, by label. */
const leaks = (home: Planted, text: string) => home.secrets.filter((s) => text.includes(s.secret)).map((s) => s.label);

/** What the engine wrote: MEMORY.md with one line added in its last task group, far from the token's. */
const engineEdit = (memory: string) => {
  const at = memory.lastIndexOf(KNOWLEDGE) + KNOWLEDGE.length;
  return memory.slice(0, at) + ENGINE_LINE + memory.slice(at);
};

/** Accepts every hunk of the proposal. */
async function acceptAll(svc: StudioService, id: string): Promise<void> {
  const proposal = await svc.call('review.get', { id });
  await svc.call('review.decide', {
    id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
  });
}

/** The proposal's files, each with its texts as the review gives them. */
async function proposalFiles(svc: StudioService, id: string) {
  const proposal = await svc.call('review.get', { id });
  const files = new Map<string, { proposed: string | null; json: string; hunks: Hunk[] }>();
  for (const f of proposal.files) {
    const texts = await svc.call('review.fileTexts', { id, ord: f.ord });
    files.set(f.relPath, { proposed: texts.proposedContent, json: JSON.stringify(texts), hunks: f.hunks });
  }
  return { proposal, files };
}

/** The result: MEMORY.md, which the engine changed, proposes the placeholder; the files it left alone are no hunk. */
async function expectResult(svc: StudioService, home: Planted, done: RunStatus): Promise<void> {
  expect(done.error).toBeNull();
  expect(done.state).toBe('proposed');
  const { proposal, files } = await proposalFiles(svc, done.proposalId as string);
  const memory = files.get('MEMORY.md');
  expect(memory?.proposed).toContain(`- CI pushes with ${R}\n- CI also runs the smoke tests\n`);
  expect(memory?.proposed).toContain(ENGINE_LINE);
  const redaction = memory?.hunks.find((h) => h.lines.includes(`+- CI pushes with ${R}`));
  expect(redaction?.secrets?.map((s) => s.label)).toEqual(['a GitHub token']);
  // Left alone by the engine: the summary, both notes and the skill keep their live text, no hunk.
  for (const path of ['memory_summary.md', home.note, home.skill]) expect(files.has(path), path).toBe(false);
  // Nothing of the proposal, nor anything in the data folder, holds a secret.
  expect(leaks(home, JSON.stringify(proposal) + [...files.values()].map((f) => f.json).join('\n'))).toEqual([]);
  expect(secretsAtRest(home.dataDir, home.secrets)).toEqual([]);
  expect(leaks(home, JSON.stringify(done))).toEqual([]);
  const log = done.log.join('\n');
  expect(log).toContain(`MEMORY.md: 1 secret was hidden from the engine; the result writes ${R} in its place.`);
  expect(log).toContain('memory_summary.md: 1 secret was hidden from the engine, which left the file as it was');
  expect(log).toContain(`${home.note}: 3 secrets were hidden from the engine, which left the file as it was`);
  expect(log).toContain("Codex's stage-1 output holds a secret");
}

describe('the openai engine sends no secret off the machine', () => {
  it('captures every request on 127.0.0.1: no body holds a secret, and the proposal holds none', async () => {
    const home = await plantedHome();
    const bodies: string[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        bodies.push(body);
        const user = (JSON.parse(body) as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user');
        const memory = /<file path="MEMORY\.md">\n([\s\S]*?)<\/file>/.exec(user?.content ?? '')?.[1] ?? '';
        const answer = `<file path="MEMORY.md">\n${engineEdit(memory)}</file>\n`;
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: answer }, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const settings = defaultEngineSettings();
    await saveEngineSettings(home.dataDir, {
      ...settings,
      engine: 'openai',
      openai: {
        ...settings.openai,
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        model: 'fake',
        maxRetries: 0,
      },
    });
    const svc = serviceOn(home, { ...process.env, OPENAI_API_KEY: 'sk-test-key-for-the-fake-server-0001' });
    // The preview names every input holding one, the skill included, and no secret.
    const preview = await svc.call('consolidate.preview', { version: 'v1', engine: 'openai' });
    expect(preview.secrets.map((s) => s.path)).toEqual(expect.arrayContaining(['MEMORY.md', 'memory_summary.md', home.note, home.skill]));
    expect(leaks(home, JSON.stringify(preview))).toEqual([]);
    const done = await run(svc, 'openai');
    expect(bodies.length).toBeGreaterThan(0);
    // The model saw the placeholder where each secret was, in the files and in the workspace diff.
    expect(bodies.join('\n')).toContain(R);
    expect(leaks(home, bodies.join('\n'))).toEqual([]);
    await expectResult(svc, home, done);
    // The summary the engine left alone still holds its token: Apply refuses until the person redacts it, then applies.
    const id = done.proposalId as string;
    await acceptAll(svc, id);
    await expect(svc.call('review.apply', { id })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining('memory_summary.md:') as unknown,
    });
    const redaction = await svc.call('review.redact', { version: 'v1', path: 'memory_summary.md', all: 'file' });
    await acceptAll(svc, redaction.id);
    await svc.call('review.apply', { id: redaction.id });
    await svc.call('review.apply', { id });
    const memory = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    expect(memory).toContain(`- CI pushes with ${R}\n- CI also runs the smoke tests\n`);
    expect(memory).toContain(ENGINE_LINE);
    expect(leaks(home, memory + (await readFile(join(home.root, 'memory_summary.md'), 'utf8')))).toEqual([]);
    // The note and the skill the engine left alone are as they were.
    expect(await readFile(join(home.root, home.note), 'utf8')).toContain('aws secret: ');
    expect(leaks(home, await readFile(join(home.root, home.skill), 'utf8')).length).toBeGreaterThan(0);
  });
});

/** A `codex` that records its argv, stdin and every file under its working folder (outside it), then edits MEMORY.md. */
const FAKE_CODEX = String.raw`#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('codex-cli 0.999.0-test'); process.exit(0); }
if (args[0] === 'exec' && args[1] === '--help') { console.log('-C, --cd --ephemeral --skip-git-repo-check --sandbox --config --json --model'); process.exit(0); }
let stdin = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { stdin += d; });
process.stdin.on('end', () => {
  const files = {};
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files[path.relative(process.cwd(), p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(process.cwd());
  fs.writeFileSync(process.env.FAKE_CODEX_RECORD, JSON.stringify({ argv: args, stdin, files }));
  const memory = path.join(process.cwd(), 'MEMORY.md');
  const text = fs.readFileSync(memory, 'utf8');
  const at = text.lastIndexOf(${JSON.stringify(KNOWLEDGE)}) + ${KNOWLEDGE.length};
  fs.writeFileSync(memory, text.slice(0, at) + ${JSON.stringify(ENGINE_LINE)} + text.slice(at));
  const out = (event) => process.stdout.write(JSON.stringify(event) + '\n');
  out({ type: 'thread.started', thread_id: 'fake' });
  out({ type: 'item.completed', item: { id: 'i1', type: 'file_change', changes: [{ path: memory, kind: 'update' }], status: 'completed' } });
  out({ type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } });
  process.exit(0);
});
`;

describe('the codex engine reads no secret in its folder', () => {
  it('records every file it can read in staging, its argv and stdin: none holds a secret', async () => {
    const home = await plantedHome();
    const bin = join(home.dataDir, '..', 'bin');
    const record = join(home.dataDir, '..', 'codex-record.json');
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, 'codex'), FAKE_CODEX);
    await chmod(join(bin, 'codex'), 0o755);
    const svc = serviceOn(home, { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, FAKE_CODEX_RECORD: record });
    const done = await run(svc, 'codex');
    const text = await readFile(record, 'utf8');
    const seen = JSON.parse(text) as { argv: string[]; stdin: string; files: Record<string, string> };
    expect(Object.keys(seen.files)).toEqual(expect.arrayContaining(['MEMORY.md', 'memory_summary.md', home.note, home.skill]));
    expect(leaks(home, text)).toEqual([]);
    // The workspace diff is made from the redacted texts: the hand edit shows the token's line as the placeholder, and
    // a file that differs from its baseline only by the hidden secrets is no change.
    const diff = seen.files['phase2_workspace_diff.md'] ?? '';
    expect(diff).toContain(`- M MEMORY.md\n`);
    expect(diff).toContain(` - CI pushes with ${R}\n+- CI also runs the smoke tests\n`);
    expect(diff).not.toContain('memory_summary.md');
    expect(diff).not.toContain(home.skill);
    expect(seen.files['MEMORY.md']).toContain(`- CI pushes with ${R}\n`);
    await expectResult(svc, home, done);
  });
});

describe('a file the engine changed next to a hidden secret', () => {
  it('proposes the placeholder as a hunk of its own, marked, so deciding it never decides the edit beside it', async () => {
    const home = await plantedHome();
    // An engine that adds a line right after the placeholder's line, keeping that line as it read it.
    const beside: Engine = async (r) => {
      const path = join(r.stagingRoot, 'MEMORY.md');
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace(`- CI pushes with ${R}\n`, `- CI pushes with ${R}\n- tags are signed in CI\n`));
      return { engine: 'codex', model: 'm', wrote: ['MEMORY.md'], message: 'wrote' };
    };
    const svc = serviceOn(home, process.env, { codex: beside });
    const done = await run(svc, 'codex');
    expect(done.state).toBe('proposed');
    const { files } = await proposalFiles(svc, done.proposalId as string);
    const hunks = files.get('MEMORY.md')?.hunks ?? [];
    const redaction = hunks.find((h) => h.lines.includes(`+- CI pushes with ${R}`));
    const edit = hunks.find((h) => h.lines.includes('+- tags are signed in CI'));
    expect(redaction?.secrets?.map((s) => s.label)).toEqual(['a GitHub token']);
    expect(edit).toBeDefined();
    expect(edit?.id).not.toBe(redaction?.id);
    expect(edit?.lines.filter((l) => l.startsWith('-') || l.startsWith('+'))).toEqual(['+- tags are signed in CI']);
  });
});
