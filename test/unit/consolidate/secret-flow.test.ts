// No secret through consolidation: staging hides each from the engine, the builtin engine and the sync redact,
// validation fails a run whose result holds one (nothing proposed), Apply refuses a result that lands with one, the
// preview marks the inputs to redact.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../shared/consolidate';
import type { Hunk } from '../../../shared/review';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { validateResultFiles, validateStaged } from '../../../electron/core/consolidate/validate';
import { stageRoot } from '../../../electron/core/consolidate/stage';
import { selectPhase2Inputs } from '../../../electron/core/consolidate/select';
import { previewInputs } from '../../../electron/core/consolidate/preview';
import type { Engine } from '../../../electron/core/consolidate/types';
import { buildConsolidation, readStagedInputs } from '../../../electron/core/consolidate/engines/builtin';
import { gateConsolidationResult } from '../../../electron/core/apply/consolidation-gate';
import { generateHome, type HomeManifest } from '../../fixtures';
import { secretsAtRest } from '../at-rest-bytes';
import { makeTempDir } from '../helpers';
import { cleanupTemps, generatedHome, handMadeHome, NOW_SEC, tempDir, tid } from './fixture';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  await cleanupTemps();
});

const R = '[REDACTED_SECRET]';
// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const awsKeyId = () => `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;
const awsSecret = () => randomBytes(30).toString('base64').replace(/[+/]/g, 'x');
const githubToken = () => `ghp_${randomBytes(27).toString('base64').replace(/[+/=]/g, 'Q').slice(0, 36)}`;

async function service(
  engines?: Record<string, Engine>,
): Promise<{ manifest: HomeManifest; service: StudioService; root: string; dataDir: string }> {
  const temp = await makeTempDir();
  const manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v1', seed: 7, git: false, now: new Date() });
  const svc = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    engines,
  });
  cleanups.push(async () => {
    svc.dispose();
    await new Promise((r) => setTimeout(r, 50));
    await temp.cleanup();
  });
  return { manifest, service: svc, root: join(manifest.codexHome, 'memories'), dataDir: join(temp.dir, 'data') };
}

/** The note of the probe: an AWS key id and its secret, as a person pastes them, written `at` (a new note by default). */
async function plantNote(root: string, at = new Date()): Promise<{ id: string; secret: string; path: string }> {
  const id = awsKeyId();
  const secret = awsSecret();
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
  const path = `extensions/ad_hoc/notes/${stamp}-deploy-creds.md`;
  await mkdir(join(root, 'extensions/ad_hoc/notes'), { recursive: true });
  await writeFile(join(root, path), `# Deploy credentials\n\n- staging deploys use AWS key ${id}\n- aws secret: ${secret}\n`);
  return { id, secret, path };
}

async function run(svc: StudioService, engine: 'builtin' | 'codex' = 'builtin'): Promise<RunStatus> {
  const started = await svc.call('consolidate.start', { version: 'v1', engine });
  return svc.consolidation().settled(started.id);
}

/** Accepts every hunk of the proposal but `except`. */
async function acceptAll(svc: StudioService, id: string, except: ReadonlySet<string> = new Set()): Promise<void> {
  const proposal = await svc.call('review.get', { id });
  await svc.call('review.decide', {
    id,
    files: proposal.files.map((f) => ({
      ord: f.ord,
      decisions: Object.fromEntries(f.hunks.map((h) => [h.id, except.has(h.id) ? ('reject' as const) : ('accept' as const)])),
    })),
  });
}

async function texts(svc: StudioService, proposalId: string): Promise<Map<string, string | null>> {
  const proposal = await svc.call('review.get', { id: proposalId });
  const out = new Map<string, string | null>();
  for (const f of proposal.files) out.set(f.relPath, (await svc.call('review.fileTexts', { id: proposalId, ord: f.ord })).proposedContent);
  return out;
}

describe('the builtin engine carries no secret', () => {
  it('reads an ad-hoc note holding an AWS key id and secret redacted, and passes validation', async () => {
    const { service: svc, root } = await service();
    const planted = await plantNote(root);
    const done = await run(svc);
    expect(done.error).toBeNull();
    expect(done.state).toBe('proposed');
    expect(done.validation?.ok).toBe(true);
    const files = await texts(svc, done.proposalId as string);
    for (const name of ['memory_summary.md', 'MEMORY.md']) {
      const text = files.get(name) ?? '';
      expect(text, name).toContain(R);
      expect(text, name).not.toContain(planted.id);
      expect(text, name).not.toContain(planted.secret);
    }
    // The run says what it hid from the engine, and that the note itself is left as it is.
    const log = done.log.join('\n');
    expect(log).toContain(
      `${planted.path}: 2 secrets (an AWS access key id, an AWS secret access key; lines 3, 4) hidden from the engine: it reads ${R} in their place.`,
    );
    expect(log).toContain(`${planted.path}: 2 secrets were hidden from the engine, which left the file as it was`);
  });
});

describe('the builtin engine reshapes no secret past the scanner', () => {
  it('redacts a private key in a note before the note becomes one clipped line', async () => {
    const { root } = await generatedHome('v1', false);
    const body = (
      randomBytes(600)
        .toString('base64')
        .match(/.{1,64}/g) as string[]
    ).join('\n');
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    await writeFile(
      join(root, `extensions/ad_hoc/notes/${stamp}-deploy-key.md`),
      `# Deploy key\n\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----\n`,
    );
    const out = buildConsolidation(await readStagedInputs(root, 'v1'), 'v1');
    for (const [path, text] of out.files) {
      // A flattened, clipped key is no longer found by the scanner: none of its material may be there at all.
      for (const line of body.split('\n').slice(0, 3)) expect(text, path).not.toContain(line.slice(8, 28));
    }
  });
});

describe('validation is the gate for every engine', () => {
  it('fails a result an engine wrote with a secret, naming the file, line and kind; nothing is proposed, written or kept', async () => {
    const token = githubToken();
    // An engine that copies a secret into MEMORY.md, as a model might.
    const leaky: Engine = async (r) => {
      const path = join(r.stagingRoot, 'MEMORY.md');
      await writeFile(path, `${await readFile(path, 'utf8')}\n- CI pushes with ${token}\n`);
      return { engine: 'codex', model: 'm', wrote: ['MEMORY.md'], message: 'wrote' };
    };
    const { service: svc, root, dataDir } = await service({ codex: leaky });
    const live = await readFile(join(root, 'MEMORY.md'), 'utf8');
    const line = `${live}\n- CI pushes with ${token}\n`.split('\n').indexOf(`- CI pushes with ${token}`) + 1;
    const done = await run(svc, 'codex');
    expect(done.state).toBe('failed');
    expect(done.proposalId).toBeNull();
    expect(done.error).toMatchObject({
      kind: 'Invalid',
      path: 'MEMORY.md',
      message: `The consolidation result holds a secret (MEMORY.md:${line} (a GitHub token)), so it was not proposed.`,
      hint: expect.stringContaining('Redact the input it came from, then run the consolidation again') as unknown,
    });
    const [secret] = (done.validation?.diagnostics ?? []).filter((d) => d.rule === 'secrets/github-token');
    expect(secret).toMatchObject({ severity: 'error', path: 'MEMORY.md', line });
    expect(secret?.message).toContain('never proposed');
    const validate = done.phases.find((p) => p.phase === 'validate');
    expect(validate?.state).toBe('failed');
    expect(validate?.detail).toContain(`MEMORY.md:${line}`);
    // Nothing written, nothing to review, and the token is nowhere: not in the answer, not in the data folder.
    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).toBe(live);
    expect((await svc.call('review.list', {})).proposals).toEqual([]);
    expect(JSON.stringify(done)).not.toContain(token);
    expect(secretsAtRest(dataDir, [{ label: 'github token', secret: token }])).toEqual([]);
  });

  it('refuses a secret in any file the result writes (a skill); copying the note it came from copies its placeholder', async () => {
    const token = githubToken();
    // An engine that turns the newest note into a skill, as a model might: whatever it read, the skill holds. On the
    // first run it writes the token from elsewhere (read outside staging, say): staging never gave it one.
    let elsewhere: string | null = `- CI pushes with ${token}`;
    const leaky: Engine = async (r) => {
      const notes = join(r.stagingRoot, 'extensions/ad_hoc/notes');
      const newest = (await readdir(notes)).sort().at(-1) as string;
      const read = (await readFile(join(notes, newest), 'utf8')).split('\n').find((l) => l.startsWith('- CI')) as string;
      await mkdir(join(r.stagingRoot, 'skills/push-ci'), { recursive: true });
      await writeFile(join(r.stagingRoot, 'skills/push-ci/SKILL.md'), `# Push CI\n\n${elsewhere ?? read}\n`);
      return { engine: 'codex', model: 'm', wrote: ['skills/push-ci/SKILL.md'], message: 'wrote' };
    };
    const { service: svc, root } = await service({ codex: leaky });
    const note = `extensions/ad_hoc/notes/${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}-push-ci.md`;
    await writeFile(join(root, note), `# Push CI\n\n- CI pushes with ${token}\n`);
    const done = await run(svc, 'codex');
    expect(done.state).toBe('failed');
    expect(done.validation?.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.path}:${d.line}`)).toEqual([
      'skills/push-ci/SKILL.md:3',
    ]);
    expect(done.error?.message).toContain('skills/push-ci/SKILL.md:3 (a GitHub token)');
    expect(existsSync(join(root, 'skills/push-ci'))).toBe(false);
    // The preview marks the note; a run hides its token from the engine, which copies the placeholder.
    const preview = await svc.call('consolidate.preview', { version: 'v1', engine: 'codex' });
    expect(preview.secrets.map((s) => s.path)).toContain(note);
    elsewhere = null;
    const again = await run(svc, 'codex');
    expect(again.state).toBe('proposed');
    expect(again.validation?.ok).toBe(true);
    expect(again.log.join('\n')).toContain(`${note}: 1 secret was hidden from the engine, which left the file as it was`);
    await acceptAll(svc, again.proposalId as string);
    await svc.call('review.apply', { id: again.proposalId as string });
    expect(await readFile(join(root, 'skills/push-ci/SKILL.md'), 'utf8')).toBe(`# Push CI\n\n- CI pushes with ${R}\n`);
    // The note the engine left alone is as it was: no proposal touched it.
    expect(await readFile(join(root, note), 'utf8')).toBe(`# Push CI\n\n- CI pushes with ${token}\n`);
  });

  it("refuses in Apply a result that, as it lands, keeps a live file's secret: its redaction's hunk was rejected", async () => {
    const { service: svc, root } = await service();
    const token = githubToken();
    const knowledge = '## Reusable knowledge\n\n';
    const live = (await readFile(join(root, 'MEMORY.md'), 'utf8')).replace(knowledge, `${knowledge}- CI pushes with ${token}\n`);
    expect(live).toContain(token);
    await writeFile(join(root, 'MEMORY.md'), live);
    // The builtin engine carries MEMORY.md's blocks redacted: its result proposes the redaction.
    const done = await run(svc);
    expect(done.state).toBe('proposed');
    const id = done.proposalId as string;
    const proposal = await svc.call('review.get', { id });
    const memory = proposal.files.find((f) => f.relPath === 'MEMORY.md');
    const redaction = memory?.hunks.find((h) => (h.secrets ?? []).some((s) => s.label === 'a GitHub token')) as Hunk;
    expect(redaction.lines).toContain(`+- CI pushes with ${R}`);
    await acceptAll(svc, id, new Set([redaction.id]));
    // The line as it would land (the other hunks accepted): the stored result is masked, its lines where the real ones are.
    const landing = (await svc.call('review.result', { id })).files.find((f) => f.relPath === 'MEMORY.md')?.content ?? live;
    const line = landing.split('\n').indexOf('- CI pushes with ghp_****') + 1;
    expect(line).toBeGreaterThan(0);
    const refused = svc.call('review.apply', { id });
    await expect(refused).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringContaining(`MEMORY.md:${line} This looks like a GitHub token (ghp_****)`) as unknown,
      hint: expect.stringContaining('Accept the hunk that redacts it') as unknown,
    });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining(token) as unknown });
    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).toBe(live);
    await acceptAll(svc, id);
    await svc.call('review.apply', { id });
    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).not.toContain(token);
  });

  it('names where the landing result holds a secret but never shows it, even in a diagnostic that quotes the line', async () => {
    const { root } = await generatedHome('v1', false);
    const token = githubToken();
    // Under a rollout_summary_files heading the line is read as a pointer too, whose diagnostic quotes it.
    const content = (await readFile(join(root, 'MEMORY.md'), 'utf8')).replace(/\n- /, `\n- CI pushes with ${token}\n- `);
    const file = { ord: 0, version: 'v1' as const, target: 'memory' as const, root, relPath: 'MEMORY.md', baseSha256: null };
    const result = {
      proposalId: 'p-gate',
      dbChanges: [],
      files: [
        { ...file, action: 'write' as const, content, sha256: null, acceptedHunkIds: [], unresolvedHunkIds: [], added: 1, removed: 0 },
      ],
    };
    const refused = gateConsolidationResult(result);
    await expect(refused).rejects.toMatchObject({ kind: 'Invalid', message: expect.stringContaining('ghp_****') as unknown });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining(token) as unknown });
  });

  it('judges a warning-rated secret by whether the run put its line there', async () => {
    const { root } = await generatedHome('v1', false);
    const live = await readFile(join(root, 'MEMORY.md'), 'utf8');
    const assigned = `- token: ${randomBytes(6).toString('hex')}-per-request\n`;
    // The person's own line, already in the live file: a warning, as the Files view says.
    await writeFile(join(root, 'MEMORY.md'), live + assigned);
    const kept = new Map([['MEMORY.md', live + assigned]]);
    const liveMap = new Map([['MEMORY.md', live + assigned]]);
    const same = validateResultFiles(kept, 'v1', { live: liveMap });
    expect(same.diagnostics.filter((d) => d.rule === 'secrets/secret-assignment').map((d) => d.severity)).toEqual(['warning']);
    // Carried in by the run: held back.
    const carried = validateResultFiles(kept, 'v1', { live: new Map([['MEMORY.md', live]]) });
    expect(carried.ok).toBe(false);
    expect(carried.diagnostics.find((d) => d.rule === 'secrets/secret-assignment')?.severity).toBe('error');
    // The same two cases on a staged folder: against a live root with the line, and with no live root to compare with.
    expect((await validateStaged(root, 'v1', { liveRoot: root })).ok).toBe(true);
    expect((await validateStaged(root, 'v1')).ok).toBe(false);
  });
});

describe('the sync stages no secret from Codex', () => {
  it("redacts a stage-1 output Codex's own patterns missed, and says so", async () => {
    const token = githubToken();
    const { dir, home } = await handMadeHome([
      { threadId: tid(1), sourceUpdatedAt: NOW_SEC - 3600, rolloutSummary: `# Fix CI\n\nPushed with ${token} from the runner.\n` },
    ]);
    const selection = await selectPhase2Inputs(home, 'v1', NOW_SEC);
    const stagingDir = join(await tempDir(), 'staging');
    const staged = await stageRoot({
      liveRoot: join(dir, 'memories'),
      stagingDir,
      version: 'v1',
      selection,
      nowSec: NOW_SEC,
      signal: new AbortController().signal,
      progress: () => undefined,
    });
    const [summary] = staged.synced.added.filter((p) => p.startsWith('rollout_summaries/'));
    const text = await readFile(join(stagingDir, summary as string), 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain(R);
    expect(staged.notes.join('\n')).toContain(`${summary}: Codex's stage-1 output holds a secret`);
  });
});

describe('the preview marks the inputs that hold a secret', () => {
  it('names the note, its lines and what they hold', async () => {
    const { home, root } = await generatedHome('v1', false);
    const planted = await plantNote(root);
    const p = await previewInputs(home, 'v1', { engine: 'builtin', model: null, nowSec: NOW_SEC });
    expect(p.secrets).toEqual([{ path: planted.path, lines: [3, 4], kinds: ['an AWS access key id', 'an AWS secret access key'] }]);
    expect(JSON.stringify(p)).not.toContain(planted.id);
  });
});
