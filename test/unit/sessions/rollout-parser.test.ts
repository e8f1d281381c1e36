// The rollout JSONL parser: metadata, assistant messages and citations; bad, huge and legacy lines never throw.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineSplitter, parseSessionRollout, readFirstLine, threadIdFromRolloutPath } from '../../../electron/core/sessions';
import { SessionRolloutSchema } from '../../../shared/sessions';
import { cleanupHomes, tempDir } from '../codex-db/home-fixture';

afterAll(cleanupHomes);

const ID = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';
const CITED = '019a0000-0000-7000-8000-00000000000a';
const NAME = `rollout-2026-03-02T17-05-44-${ID}.jsonl`;

const line = (type: string, payload: unknown, ts = '2026-03-02T17:05:44.000Z'): string => JSON.stringify({ timestamp: ts, type, payload });
const meta = (id = ID): string =>
  line('session_meta', {
    id,
    timestamp: '2026-03-02T17:05:44.123Z',
    cwd: '/home/dana/src/invoice-svc',
    source: 'cli',
    cli_version: '0.128.0',
  });
const assistant = (text: string, ts?: string): string =>
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }, ts);
const block = (entries: string[], ids: string[], tag = 'rollout_ids'): string =>
  [
    '<oai-mem-citation>',
    '<citation_entries>',
    ...entries,
    '</citation_entries>',
    `<${tag}>`,
    ...ids,
    `</${tag}>`,
    '</oai-mem-citation>',
  ].join('\n');

async function write(name: string, lines: Array<string | Buffer>, eol = '\n'): Promise<string> {
  const dir = join(await tempDir('rollout-test-'), 'sessions', '2026', '03', '02');
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, Buffer.concat(lines.map((l) => Buffer.concat([Buffer.isBuffer(l) ? l : Buffer.from(l), Buffer.from(eol)]))));
  return path;
}

describe('parseSessionRollout', () => {
  it('reads metadata, assistant messages and their citations with the line timestamp', async () => {
    const path = await write(NAME, [
      meta(),
      line('turn_context', { cwd: '/x' }),
      assistant('First reply, no citation.'),
      line('event_msg', { type: 'agent_message', message: block(['MEMORY.md:1-2|note=[dup]'], [CITED]) }),
      assistant(
        `Done.\n\n${block(['MEMORY.md:12-14|note=[pdf font pin]', 'rollout_summaries/a.md:9-11|note=[cmd]'], [CITED])}`,
        '2026-03-02T18:00:00.500Z',
      ),
    ]);
    const r = await parseSessionRollout(path);
    expect(() => SessionRolloutSchema.parse(r)).not.toThrow();
    expect(r).toMatchObject({
      threadId: ID,
      fileThreadId: ID,
      cwd: '/home/dana/src/invoice-svc',
      source: 'cli',
      cliVersion: '0.128.0',
      lineCount: 5,
      assistantMessageCount: 2,
    });
    expect(r.startedAt).toEqual({ seconds: Date.parse('2026-03-02T17:05:44Z') / 1000, iso: '2026-03-02T17:05:44.000Z' });
    expect(r.assistantMessages.map((m) => m.line)).toEqual([3, 5]);
    // event_msg agent messages repeat the text; only response items count, so the block is read once.
    expect(r.citations).toEqual([
      {
        line: 5,
        time: { seconds: Date.parse('2026-03-02T18:00:00Z') / 1000, iso: '2026-03-02T18:00:00.000Z' },
        entries: [
          { path: 'MEMORY.md', lineStart: 12, lineEnd: 14, note: 'pdf font pin' },
          { path: 'rollout_summaries/a.md', lineStart: 9, lineEnd: 11, note: 'cmd' },
        ],
        threadIds: [CITED],
      },
    ]);
    expect(r.diagnostics).toEqual([]);
  });

  it('turns bad lines into coalesced diagnostics and keeps going', async () => {
    const path = await write(NAME, [
      meta(),
      '{not json',
      '{"also": broken',
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      '',
      '42',
      assistant(block(['MEMORY.md:1-2', 'MEMORY.md:2-3|note=[ok]'], [])),
    ]);
    const r = await parseSessionRollout(path);
    expect(r.diagnostics.map((d) => [d.rule, d.line, d.endLine, d.severity])).toEqual([
      ['session/invalid-json', 2, 3, 'error'],
      ['session/invalid-utf8', 4, 4, 'error'],
      ['session/citation-entry-dropped', 7, 7, 'warning'],
    ]);
    expect(r.citations[0]?.entries).toEqual([{ path: 'MEMORY.md', lineStart: 2, lineEnd: 3, note: 'ok' }]);
  });

  it('skips a line over the cap without holding it, and caps kept text', async () => {
    const huge = assistant(`${'x'.repeat(300_000)}${block(['MEMORY.md:1-1|note=[lost]'], [])}`);
    const path = await write(NAME, [meta(), huge, assistant('y'.repeat(50)), assistant('z'.repeat(50))]);
    const r = await parseSessionRollout(path, { maxLineBytes: 100_000, maxTextChars: 10, maxMessagesWithText: 1 });
    expect(r.diagnostics[0]).toMatchObject({ rule: 'session/line-too-long', line: 2 });
    expect(r.citations).toEqual([]);
    expect(r.assistantMessages).toEqual([{ line: 3, text: 'yyyyyyyyyy', truncated: true }, { line: 4 }]);
    expect(r.assistantMessageCount).toBe(2);
  });

  it('reads CRLF files, the legacy unwrapped format, and an unclosed citation to the end of the message', async () => {
    const legacy = [
      JSON.stringify({ id: ID, timestamp: '2025-05-01T10:00:00Z', instructions: null }),
      JSON.stringify({
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: `<oai-mem-citation><citation_entries>\nMEMORY.md:4-5|note=[n]\n</citation_entries><thread_ids>${CITED}</thread_ids>`,
          },
        ],
      }),
    ];
    const r = await parseSessionRollout(await write(NAME, legacy, '\r\n'));
    expect(r).toMatchObject({ threadId: ID, startedAt: { iso: '2025-05-01T10:00:00.000Z' } });
    expect(r.citations[0]).toMatchObject({ entries: [{ path: 'MEMORY.md', lineStart: 4, lineEnd: 5 }], threadIds: [CITED] });
    expect(r.diagnostics.map((d) => d.rule)).toEqual(['session/citation-unclosed']);
  });

  it('reports a missing session_meta and a thread id that disagrees with the file name', async () => {
    const other = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a99';
    const mismatch = await parseSessionRollout(await write(NAME, [meta(other)]));
    expect(mismatch.threadId).toBe(other);
    expect(mismatch.diagnostics.map((d) => d.rule)).toEqual(['session/thread-id-mismatch']);
    const noMeta = await parseSessionRollout(await write(NAME, [assistant('hi')]));
    expect(noMeta.threadId).toBe(ID);
    expect(noMeta.diagnostics.map((d) => d.rule)).toEqual(['session/missing-meta']);
    const empty = await parseSessionRollout(await write('rollout-empty.jsonl', []));
    expect(empty).toMatchObject({ threadId: null, fileThreadId: null, lineCount: 0 });
  });

  it('streams files larger than the whole-file threshold', async () => {
    const filler = line('response_item', { type: 'function_call_output', output: 'o'.repeat(1024) });
    const lines = [meta(), ...Array.from({ length: 5000 }, () => filler), assistant(block(['MEMORY.md:1-2|note=[end]'], [CITED]))];
    const r = await parseSessionRollout(await write(NAME, lines));
    expect(r.bytes).toBeGreaterThan(4 * 1024 * 1024);
    expect(r.lineCount).toBe(5002);
    expect(r.citations[0]?.line).toBe(5002);
  });
});

describe('line splitting and names', () => {
  it('splits across chunk boundaries, strips \\r, and reports an over-long last line', () => {
    const seen: Array<[number, string | null, number]> = [];
    const splitter = new LineSplitter(8, (n, l, len) => seen.push([n, l ? l.toString() : null, len]));
    for (const chunk of ['ab', 'c\r\nde', 'f\n\n', '0123456789']) splitter.push(Buffer.from(chunk));
    splitter.end();
    expect(seen).toEqual([
      [1, 'abc', 4],
      [2, 'def', 3],
      [3, '', 0],
      [4, null, 10],
    ]);
  });

  it('reads thread ids from rollout file names and first lines', async () => {
    expect(threadIdFromRolloutPath(`/x/sessions/2026/03/02/${NAME}`)).toBe(ID);
    expect(threadIdFromRolloutPath(`/x/${NAME.toUpperCase().replace('.JSONL', '.jsonl').replace('ROLLOUT', 'rollout')}`)).toBe(ID);
    expect(threadIdFromRolloutPath('/x/rollout-2026-03-02T17-05-44.jsonl')).toBeNull();
    const path = await write(NAME, [meta(), assistant('x')]);
    expect(JSON.parse((await readFirstLine(path)) ?? '{}').type).toBe('session_meta');
  });
});
