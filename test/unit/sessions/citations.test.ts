// The citation parser against Codex's own tests (citations_tests.rs) and the rules of citations.rs, edge by edge.
import { describe, expect, it } from 'vitest';
import {
  canonicalThreadId,
  droppedCitationEntries,
  extractCitationBlocks,
  parseCitationEntry,
  parseMemoryCitation,
  rustTrim,
} from '../../../electron/core/sessions';

const FIRST = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';
const SECOND = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a62';

describe('parseMemoryCitation: Codex citations_tests.rs', () => {
  it('extracts entries and rollout ids, de-duplicating ids in order', () => {
    const parsed = parseMemoryCitation([
      `<citation_entries>\nMEMORY.md:1-2|note=[summary]\nrollout_summaries/foo.md:10-12|note=[details]\n</citation_entries>\n<rollout_ids>\n${FIRST}\n${SECOND}\n${FIRST}\n</rollout_ids>`,
    ]);
    expect(parsed).toEqual({
      entries: [
        { path: 'MEMORY.md', lineStart: 1, lineEnd: 2, note: 'summary' },
        { path: 'rollout_summaries/foo.md', lineStart: 10, lineEnd: 12, note: 'details' },
      ],
      threadIds: [FIRST, SECOND],
    });
  });

  it('supports the legacy <thread_ids> block and keeps invalid ids as written', () => {
    const parsed = parseMemoryCitation([
      `<memory_citation>\n<citation_entries>\nMEMORY.md:1-2|note=[x]\n</citation_entries>\n<thread_ids>\n${FIRST}\nnot-a-uuid\n${SECOND}\n</thread_ids>\n</memory_citation>`,
    ]);
    expect(parsed?.threadIds).toEqual([FIRST, 'not-a-uuid', SECOND]);
    // thread_ids_from_memory_citation keeps only valid ThreadIds.
    expect(parsed?.threadIds.map(canonicalThreadId).filter(Boolean)).toEqual([FIRST, SECOND]);
  });

  it('supports rollout ids without entries', () => {
    expect(parseMemoryCitation([`<memory_citation>\n<rollout_ids>\n${FIRST}\n</rollout_ids>\n</memory_citation>`])).toEqual({
      entries: [],
      threadIds: [FIRST],
    });
  });

  it('rejects invalid entries and keeps a valid Windows location (newest upstream test)', () => {
    const parsed = parseMemoryCitation([
      String.raw`<citation_entries>
:1-2|note=[empty path]
   :1-2|note=[blank path]
MEMORY.md:9-2|note=[reversed]
MEMORY.md:x-2|note=[invalid number]
MEMORY.md:1-2|note=[missing bracket
C:\memories\MEMORY.md:2-4|note=[ valid ]
</citation_entries>`,
    ]);
    expect(parsed?.entries).toEqual([{ path: String.raw`C:\memories\MEMORY.md`, lineStart: 2, lineEnd: 4, note: 'valid' }]);
    expect(parseMemoryCitation(['<citation_entries>:3-1|note=[bad]</citation_entries>'])).toBeNull();
  });

  it('de-duplicates ids across citation blocks in encounter order, rollout_ids before thread_ids', () => {
    const parsed = parseMemoryCitation([`<rollout_ids>${FIRST}</rollout_ids>`, `<thread_ids>${SECOND}\n${FIRST}</thread_ids>`]);
    expect(parsed?.threadIds).toEqual([FIRST, SECOND]);
  });
});

describe('parseMemoryCitation: the rules of citations.rs', () => {
  it('splits at the last "|note=[" so a note may contain the separator text', () => {
    // The range becomes "4|note=[a": not a number, so the whole line is dropped.
    expect(parseCitationEntry('MEMORY.md:3-4|note=[a|note=[b]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:1-2|note=[a]b]')).toMatchObject({ note: 'a]b' });
    expect(parseCitationEntry('MEMORY.md:3-4|note=[x] |note=[y]')).toBeNull();
    expect(parseCitationEntry('a:b.md:3-4|note=[weird|note=[ok]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:3-4|note=[weird]|note=[ok]')).toBeNull();
    expect(parseCitationEntry('x|note=[MEMORY.md:3-4|note=[kept]')).toEqual({
      path: 'x|note=[MEMORY.md',
      lineStart: 3,
      lineEnd: 4,
      note: 'kept',
    });
  });

  it('splits the location at the last ":" and the range at the first "-"', () => {
    expect(parseCitationEntry('dir:with:colons/file.md:7-9|note=[n]')).toMatchObject({
      path: 'dir:with:colons/file.md',
      lineStart: 7,
      lineEnd: 9,
    });
    expect(parseCitationEntry('MEMORY.md:7-9-11|note=[n]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:7|note=[n]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md 7-9|note=[n]')).toBeNull();
  });

  it("parses numbers as Rust's u32: optional +, trimmed parts, no sign, no overflow", () => {
    expect(parseCitationEntry('MEMORY.md: +1 - 2 |note=[n]')).toMatchObject({ lineStart: 1, lineEnd: 2 });
    expect(parseCitationEntry('MEMORY.md:0-0|note=[n]')).toMatchObject({ lineStart: 0, lineEnd: 0 });
    expect(parseCitationEntry('MEMORY.md:1-4294967295|note=[n]')).toMatchObject({ lineEnd: 4294967295 });
    expect(parseCitationEntry('MEMORY.md:1-4294967296|note=[n]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:1-1.5|note=[n]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:1-0x2|note=[n]')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:--1|note=[n]')).toBeNull();
  });

  it('trims the line, path and note; requires the trailing "]"; allows an empty note', () => {
    expect(parseCitationEntry('   rollout_summaries/a.md :1-2|note=[  spaced note  ]   ')).toEqual({
      path: 'rollout_summaries/a.md',
      lineStart: 1,
      lineEnd: 2,
      note: 'spaced note',
    });
    expect(parseCitationEntry('MEMORY.md:1-2|note=[]')).toMatchObject({ note: '' });
    expect(parseCitationEntry('MEMORY.md:1-2|note=[x] trailing')).toBeNull();
    expect(parseCitationEntry('MEMORY.md:1-2')).toBeNull();
    expect(parseCitationEntry('   ')).toBeNull();
  });

  it('trims exactly what Rust trims (U+0085 yes, U+FEFF no)', () => {
    expect(rustTrim('\u0085 a \u3000')).toBe('a');
    expect(rustTrim('\ufeffa')).toBe('\ufeffa');
    expect(parseCitationEntry('\ufeffMEMORY.md:1-2|note=[n]')?.path).toBe('\ufeffMEMORY.md');
  });

  it('reads only the first entries block and ids block of a citation, and needs both tags closed', () => {
    const twoBlocks = `<citation_entries>\nA.md:1-1|note=[a]\n</citation_entries>\n<citation_entries>\nB.md:2-2|note=[b]\n</citation_entries>`;
    expect(parseMemoryCitation([twoBlocks])?.entries.map((e) => e.path)).toEqual(['A.md']);
    expect(parseMemoryCitation(['<citation_entries>\nA.md:1-1|note=[a]\n'])).toBeNull();
    // An unclosed <rollout_ids> falls back to the legacy block.
    expect(parseMemoryCitation([`<rollout_ids>\n${FIRST}\n<thread_ids>\n${SECOND}\n</thread_ids>`])?.threadIds).toEqual([SECOND]);
    // CRLF lines and blank id lines.
    expect(
      parseMemoryCitation([
        `<citation_entries>\r\nA.md:1-3|note=[a]\r\n</citation_entries>\r\n<rollout_ids>\r\n\r\n${FIRST}\r\n</rollout_ids>`,
      ]),
    ).toEqual({
      entries: [{ path: 'A.md', lineStart: 1, lineEnd: 3, note: 'a' }],
      threadIds: [FIRST],
    });
  });

  it('returns null when there are neither entries nor ids', () => {
    expect(parseMemoryCitation([])).toBeNull();
    expect(parseMemoryCitation(['<citation_entries>\nnot an entry\n</citation_entries>\n<rollout_ids>\n   \n</rollout_ids>'])).toBeNull();
  });

  it('explains which lines Codex drops', () => {
    const dropped = droppedCitationEntries([
      '<citation_entries>\nMEMORY.md:1-2\nMEMORY.md:5-1|note=[r]\nok.md:1-1|note=[ok]\n:1-1|note=[p]\n</citation_entries>',
    ]);
    expect(dropped.map((d) => d.reason)).toEqual(['no-note', 'reversed-range', 'empty-path']);
  });
});

describe('extractCitationBlocks: the citation stream parser', () => {
  it('takes literal, non-nested <oai-mem-citation> bodies in order and closes an unterminated one at the end', () => {
    const text =
      'before <oai-mem-citation>one</oai-mem-citation> mid <oai-mem-citation>two <oai-mem-citation>still two</oai-mem-citation> after <oai-mem-citation>three';
    expect(extractCitationBlocks(text)).toEqual({ blocks: ['one', 'two <oai-mem-citation>still two', 'three'], unclosed: 1 });
  });

  it('also passes web citation bodies on, as newer Codex builds do', () => {
    expect(extractCitationBlocks('a \u{e200}cite\u{e202}turn0search1\u{e201} b').blocks).toEqual(['turn0search1']);
  });
});

describe('canonicalThreadId', () => {
  it('accepts the forms uuid::parse_str accepts and prints lowercase hyphenated', () => {
    const upper = FIRST.toUpperCase();
    expect(canonicalThreadId(upper)).toBe(FIRST);
    expect(canonicalThreadId(FIRST.replace(/-/g, ''))).toBe(FIRST);
    expect(canonicalThreadId(`{${FIRST}}`)).toBe(FIRST);
    expect(canonicalThreadId(`urn:uuid:${FIRST}`)).toBe(FIRST);
    expect(canonicalThreadId('not-a-uuid')).toBeNull();
    expect(canonicalThreadId(`${FIRST}0`)).toBeNull();
  });
});
