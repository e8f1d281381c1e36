// Files past the editor's 16 MiB: a 20 MB MEMORY.md is linted, consolidated into a proposal and applied; past the
// 64 MiB processing cap a file is refused with its size and what to do, never half-read.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { ANALYSIS_CAP_BYTES, createRootReader } from '../../../electron/core/codex/workspace';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let service: StudioService;
let root = '';

beforeAll(async () => {
  tmp = await makeTempDir();
  manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'v1', seed: 2, git: false, now: new Date() });
  root = join(manifest.codexHome, 'memories');
  const block = await readFile(join(root, 'MEMORY.md'), 'utf8');
  const copies = Math.ceil(20_000_000 / Buffer.byteLength(block));
  await writeFile(join(root, 'MEMORY.md'), Array.from({ length: copies }, () => block).join('\n'));
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(tmp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    holdConsolidationLease: false,
  });
}, 300_000);

afterAll(async () => {
  service.dispose();
  await tmp.cleanup();
});

describe('a 20 MB MEMORY.md', () => {
  it('is linted (not refused as too big) and the editor says plainly why it does not open it', async () => {
    const lint = await service.call('inspect.lint', { version: 'v1' });
    expect(lint.files.find((f) => f.path === 'MEMORY.md')?.diagnostics.map((d) => d.rule) ?? []).not.toContain('lint/unreadable');
    const read = await service.dispatch('workspace.read', { version: 'v1', path: 'MEMORY.md' });
    expect(read).toMatchObject({
      ok: false,
      error: {
        kind: 'Unsupported',
        message: expect.stringMatching(/MEMORY\.md is 19\.\d MiB, more than the 16\.0 MiB Memory Studio opens in the editor/),
      },
    });
  });

  it('consolidates into a proposal that applies', async () => {
    const started = await service.call('consolidate.start', { version: 'v1', engine: 'builtin' });
    const run = await service.consolidation().settled(started.id);
    expect(run.error).toBeNull();
    expect(run.state).toBe('proposed');
    const proposal = await service.call('review.get', { id: run.proposalId as string });
    const memory = proposal.files.find((f) => f.relPath === 'MEMORY.md');
    expect(memory?.change).toBe('modify');
    await service.call('review.decide', {
      id: proposal.id,
      files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept'])) })),
    });
    const expected = (await service.call('review.result', { id: proposal.id })).files.find((f) => f.relPath === 'MEMORY.md')?.content;
    const applied = await service.call('review.apply', { id: proposal.id });
    expect(applied.written.map((w) => w.relPath)).toContain('MEMORY.md');
    // The engine merges into the 20 MB file (it keeps what no input rewrote): what lands is exactly the reviewed result.
    expect(expected).toBeTypeOf('string');
    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).toBe(expected);
  }, 300_000);
});

describe('past the processing cap', () => {
  it('a file is refused with its size and what to do', async () => {
    const read = createRootReader(root, 'v1');
    await expect(read({ path: 'MEMORY.md', size: ANALYSIS_CAP_BYTES + 1, mtimeMs: 0 })).rejects.toMatchObject({
      kind: 'Unsupported',
      message: expect.stringMatching(/more than the 64\.0 MiB Memory Studio reads from one memory file/),
      hint: expect.stringMatching(/Split it or move old parts out/),
    });
  });
});
