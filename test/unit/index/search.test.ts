// Search over the index: ranked hits with the right file and line, highlights, filters, phrases, and the palette's places.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestLine, fold, ftsQuery, parseQuery } from '../../../electron/core/index-store/search';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let service: StudioService;

const NOTE = 'extensions/ad_hoc/notes/2026-11-20T12-00-00-zebra.md';

beforeAll(async () => {
  tmp = await makeTempDir();
  manifest = await generateHome({
    dir: join(tmp.dir, 'home'),
    scale: 'small',
    version: 'both',
    seed: 9,
    now: new Date('2026-11-20T12:00:00Z'),
  });
  const v1 = join(manifest.codexHome, 'memories');
  await writeFile(
    join(v1, NOTE),
    '# A note\n\nNothing here.\n\nThe Quokka deployment runbook lives in ops/quokka.md; quokkas need café-grade coffee.\n',
  );
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(tmp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
});

afterAll(async () => {
  service.dispose();
  await tmp.cleanup();
});

describe('search.query', () => {
  it('finds a word on its line, case and accents folded, with the matched words highlighted', async () => {
    const result = await service.call('search.query', { query: 'QUOKKA cafe' });
    const hit = result.hits[0];
    expect(hit).toMatchObject({ version: 'v1', relPath: NOTE, kind: 'ad-hoc-note', line: 5 });
    const marked = hit?.highlights.map(([s, e]) => hit.snippet.slice(s, e));
    expect(marked).toEqual(['Quokka', 'quokka', 'quokkas', 'café']);
    expect(result.total).toBeGreaterThanOrEqual(1);
  });

  it('ranks, filters by version, kind and project, and says nothing for no match', async () => {
    const all = await service.call('search.query', { query: 'invoice', limit: 50 });
    expect(all.hits.length).toBeGreaterThan(3);
    const scores = all.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const v2 = await service.call('search.query', { query: 'invoice', version: 'v2', limit: 50 });
    expect(v2.hits.length).toBeGreaterThan(0);
    expect(v2.hits.every((h) => h.version === 'v2')).toBe(true);
    const summaries = await service.call('search.query', { query: 'invoice', kind: 'rollout-summary', limit: 50 });
    expect(summaries.hits.every((h) => h.kind === 'rollout-summary')).toBe(true);
    const project = all.hits.find((h) => h.project)?.project as string;
    const scoped = await service.call('search.query', { query: 'invoice', project, limit: 50 });
    expect(scoped.hits.length).toBeGreaterThan(0);
    expect(scoped.hits.every((h) => h.project === project)).toBe(true);
    expect((await service.call('search.query', { query: 'xylophonequartz' })).hits).toEqual([]);
    expect((await service.call('search.projects', {})).map((p) => p.project)).toContain(project);
  });

  it('never stores or shows a secret: a key is masked in the index, the lines after it keep their numbers', async () => {
    const key = `-----BEGIN PRIVATE KEY-----\n${Array.from({ length: 6 }, (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${i}xyzNumbatQ`).join('\n')}\n-----END PRIVATE KEY-----`;
    const token = 'ghp_' + 'Numbat1234567890abcdefghijklmnopqrstu';
    const note = 'extensions/ad_hoc/notes/2026-11-20T12-00-03-creds.md';
    await writeFile(
      join(manifest.codexHome, 'memories', note),
      `# Creds\n\nnumbat token ${token}\n${key}\nThe numbat burrow is on line eleven.\n`,
    );
    const after = await service.call('search.query', { query: 'numbat burrow' });
    expect(after.hits[0]).toMatchObject({ relPath: note, line: 12 });
    const tokenHits = await service.call('search.query', { query: 'numbat token' });
    expect(tokenHits.hits[0]?.relPath).toBe(note);
    expect(tokenHits.hits[0]?.snippet).toContain('ghp_****');
    expect(JSON.stringify(tokenHits)).not.toContain(token.slice(8, 20));
    expect((await service.call('search.query', { query: 'xyzNumbatQ' })).hits).toEqual([]);
    // Nothing of either secret is in the index's files.
    const { readdirSync } = await import('node:fs');
    const indexDir = join(tmp.dir, 'data', 'index');
    for (const name of readdirSync(indexDir)) {
      const bytes = await readFile(join(indexDir, name));
      expect(bytes.includes(Buffer.from(token.slice(8, 20))), name).toBe(false);
      expect(bytes.includes(Buffer.from('BgkqhkiG9w0BAQEFAASC')), name).toBe(false);
    }
  });

  it('sees an edit at the next query', async () => {
    const path = join(manifest.codexHome, 'memories', NOTE);
    await writeFile(path, `${await readFile(path, 'utf8')}\nA wombat appeared.\n`);
    const result = await service.call('search.query', { query: 'wombat' });
    expect(result.hits.map((h) => [h.relPath, h.line])).toEqual([[NOTE, 7]]);
  });

  it('offers MEMORY.md blocks, summary scopes and rollout titles to the palette by word prefix', async () => {
    const blocks = await service.call('search.blocks', { query: 'invo' });
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.some((b) => b.relPath === 'MEMORY.md' && b.kind === 'memory-block')).toBe(true);
    for (const b of blocks) expect(b.endLine).toBeGreaterThanOrEqual(b.line);
  });
});

describe('query parsing', () => {
  it('keeps quoted and punctuated words as phrases and makes longer last words prefixes', () => {
    expect(ftsQuery(parseQuery('pdf "flaky test" invoice-svc ab'))).toBe('"pdf" * "flaky test" "invoice svc" * "ab"');
    expect(parseQuery('  " "  ---  ')).toEqual([]);
  });

  it('picks the line with the most matching words and cuts long lines around the first match', () => {
    const body = `first line\n${'x '.repeat(200)}needle here\nneedle and haystack needle\n`;
    const best = bestLine(body, parseQuery('needle haystack'));
    expect(best.offset).toBe(2);
    const long = bestLine(`${'word '.repeat(100)}needle ${'tail '.repeat(100)}`, parseQuery('needle'));
    expect(long.snippet.startsWith('…')).toBe(true);
    const [start, end] = long.highlights[0] as [number, number];
    expect(long.snippet.slice(start, end)).toBe('needle');
  });

  it('finds the same best line and highlights as reading every word folded, for ASCII, emoji, accents and long lines', () => {
    // The plain algorithm the fast paths must agree with: every word of every line (cut at 20,000), Unicode-folded.
    const reference = (body: string, query: string) => {
      const terms = parseQuery(query);
      const matches = (word: string) =>
        terms.some((t) => t.tokens.some((tok, i) => word === tok || (t.prefix && i === t.tokens.length - 1 && word.startsWith(tok))));
      let best = { offset: 0, ranges: [] as Array<[number, number]> };
      body.split('\n').forEach((line, offset) => {
        const ranges: Array<[number, number]> = [];
        for (const m of line.slice(0, 20_000).matchAll(/[\p{L}\p{N}]+/gu))
          if (matches(fold(m[0]))) ranges.push([m.index, m.index + m[0].length]);
        if (ranges.length > best.ranges.length) best = { offset, ranges };
      });
      return best;
    };
    const words = [
      'Tiles',
      'tiles-rs',
      'RS',
      'users',
      'Café',
      'cafe',
      'naïve',
      'İstanbul',
      'invoice_svc',
      'x١',
      '🚀',
      '—',
      'e\u0301',
      'release',
      'rel',
      '0.4',
    ];
    let seed = 7;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), (seed >>> 16) % n);
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + next(6) }, () =>
        Array.from({ length: next(9) }, () => words[next(words.length)]).join(next(3) ? ' ' : ''),
      );
      if (round % 50 === 0) lines.push(`${'a'.repeat(19_995)}tiles and release`);
      if (round % 7 === 0) lines[0] += '\r';
      const body = lines.join('\n');
      for (const query of ['tiles-rs', 'cafe rel', 'release', 'rs', 'naive', '"tiles rs"', 'istanbul', 'x١']) {
        const got = bestLine(body, parseQuery(query));
        const want = reference(body, query);
        expect(got.offset, `${query} in ${JSON.stringify(body)}`).toBe(want.offset);
        const line = (body.split('\n')[want.offset] ?? '').replace(/\r$/, '');
        if (line.length <= 160) expect(got.highlights, `${query} in ${JSON.stringify(body)}`).toEqual(want.ranges);
      }
    }
  });
});
