// `provenance.line`: a line of a memory file traced to its entry, the rollout summaries and sessions behind it, its citations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 5, git: false });
}, 300_000);

afterAll(() => home?.dispose());

describe('provenance.line', () => {
  it('traces a MEMORY.md line to its task group and the pointers of that group', async () => {
    const { service } = home;
    const parsed = await service.call('inspect.parse', { version: 'v1', path: 'MEMORY.md' });
    if (parsed.kind !== 'memory_md') throw new Error('MEMORY.md did not parse as MEMORY.md');
    const block = parsed.blocks[0];
    if (!block) throw new Error('the generated MEMORY.md has no task group');
    const p = await service.call('provenance.line', { version: 'v1', path: 'MEMORY.md', line: block.endLine });
    expect(p.entry).toMatchObject({ kind: 'task-group', line: block.line, title: block.title });
    expect(p.rolloutSummaries.length).toBeGreaterThan(0);
    const text = (await service.call('workspace.read', { version: 'v1', path: 'MEMORY.md' })).content.split('\n');
    const blockText = text.slice(block.line - 1, block.endLine).join('\n');
    for (const r of p.rolloutSummaries) expect(blockText).toContain(r.file.replace(/^rollout_summaries\//, ''));
    for (const r of p.rolloutSummaries)
      expect(r).toEqual(
        await service.call('provenance.pointer', {
          version: 'v1',
          file: r.file,
          threadIdHint: r.threadIdFrom === 'hint' ? (r.threadId ?? undefined) : undefined,
        }),
      );
  });

  it('traces a rollout summary to itself and its session, and keeps the citations that hold the line', async () => {
    const { service } = home;
    const list = await service.call('workspace.list', { version: 'v1' });
    const summaries = list.files.filter((f) => f.kind === 'rollout-summary');
    let checked = 0;
    for (const file of summaries) {
      const cited = await service.call('provenance.citedBy', { version: 'v1', path: file.path });
      const p = await service.call('provenance.line', { version: 'v1', path: file.path, line: 1 });
      expect(p.rolloutSummaries).toEqual([await service.call('provenance.pointer', { version: 'v1', file: file.path })]);
      expect(p.fileCitations).toBe(cited.length);
      const holding = cited.filter((c) => (c.lineStart === null ? c.via === 'rollout_id' : c.lineStart <= 1 && 1 <= (c.lineEnd ?? 0)));
      expect(p.citedBy).toEqual(holding);
      checked += cited.length;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('traces a raw memory to its session by thread id, and refuses a line past the end', async () => {
    const { service } = home;
    const parsed = await service.call('inspect.parse', { version: 'v1', path: 'raw_memories.md' });
    if (parsed.kind !== 'raw_memories') throw new Error('raw_memories.md did not parse');
    const thread = parsed.threads[0];
    if (!thread) throw new Error('no raw memory');
    const p = await service.call('provenance.line', { version: 'v1', path: 'raw_memories.md', line: thread.line });
    expect(p.entry?.kind).toBe('raw-memory');
    // Through its rollout summary when it names one, else by the thread id alone.
    expect([...p.rolloutSummaries.map((r) => r.threadId), ...p.sessions.map((s) => s.threadId)]).toContain(thread.threadId);
    expect(p.sessions.every((s) => s.exists === (s.sessionPath !== null))).toBe(true);
    await expect(service.call('provenance.line', { version: 'v1', path: 'raw_memories.md', line: 10_000_000 })).rejects.toThrow(
      /has \d+ lines/,
    );
    await expect(service.call('provenance.line', { version: 'v1', path: '../config.toml', line: 1 })).rejects.toThrow(/climbs out/);
  });
});
