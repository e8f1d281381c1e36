// Hostile inputs: truncations, wrong encodings, a 100,000-line file, lone surrogates and seeded random byte
// mutations of valid files: never a throw, always a schema-valid result, always a byte-identical round trip.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DIAGNOSTICS_PER_RULE } from '../../../electron/core/formats/context';
import { parseMemoryFile, serializeParsedFile } from '../../../electron/core/formats';
import { parsedKinds, type ParsedKind } from '../../../shared/formats';
import { generateHome } from '../../fixtures';
import {
  assertInvariants,
  Rng,
  SPEC_MEMORY_MD,
  SPEC_RAW_MEMORIES,
  SPEC_ROLLOUT_SUMMARY,
  SPEC_SKILL,
  SPEC_SUMMARY_V1,
  SPEC_SUMMARY_V2,
  SPEC_WORKSPACE_DIFF,
} from './helpers';

interface Sample {
  path: string;
  text: string;
}

const samples: Sample[] = [];
let home = '';

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'formats-hostile-'));
  await generateHome({ dir: home, scale: 'small', version: 'both', now: new Date('2026-03-05T12:00:00Z'), git: false });
  const seenKinds = new Set<string>();
  for (const rootName of ['memories', 'memories_v2']) {
    const root = join(home, rootName);
    const rec = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) rec(p);
        else {
          const rel = `${rootName}/${relative(root, p).split('\\').join('/')}`;
          const kind = parseMemoryFile('', { path: rel }).kind;
          // Every kind once per root, plus every non-summary file (keeps the fuzz corpus small but complete).
          if (kind !== 'rollout_summary' || !seenKinds.has(`${rootName}:${kind}`))
            samples.push({ path: rel, text: readFileSync(p, 'utf8') });
          seenKinds.add(`${rootName}:${kind}`);
        }
      }
    };
    rec(root);
  }
  samples.push(
    { path: 'memories_v2/memory_summary.md', text: SPEC_SUMMARY_V2 },
    { path: 'memory_summary.md', text: SPEC_SUMMARY_V1 },
    { path: 'MEMORY.md', text: SPEC_MEMORY_MD },
    { path: 'raw_memories.md', text: SPEC_RAW_MEMORIES },
    { path: 'rollout_summaries/2026-03-02T17-05-44-k3Qz-x.md', text: SPEC_ROLLOUT_SUMMARY },
    { path: 'skills/invoice-pdf-test-fix/SKILL.md', text: SPEC_SKILL },
    { path: 'phase2_workspace_diff.md', text: SPEC_WORKSPACE_DIFF },
    {
      path: 'extensions/chronicle/manifest.json',
      text: '{\n  "version": 1,\n  "resources": {\n    "a": { "targetFileName": "a.md", "contentSha256": "00" }\n  }\n}\n',
    },
  );
}, 300_000);

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function check(text: string, path: string, kind?: ParsedKind): void {
  let parsed;
  try {
    parsed = parseMemoryFile(text, { path, kind });
  } catch (error) {
    throw new Error(`parseMemoryFile threw on ${path} (${text.length} chars): ${(error as Error).stack}`);
  }
  assertInvariants(parsed, text);
  expect(serializeParsedFile(JSON.parse(JSON.stringify(parsed))) === text).toBe(true);
}

const INTERESTING = [
  0x0a, 0x0d, 0x00, 0x23, 0x2d, 0x2a, 0x60, 0x3a, 0x7b, 0x7d, 0x22, 0x5b, 0x5d, 0x20, 0x09, 0xff, 0xc3, 0xe2, 0xef, 0xbb, 0xbf, 0xf0,
];

function mutate(rng: Rng, bytes: Uint8Array): Uint8Array {
  const out = Array.from(bytes);
  const n = rng.int(1, 8);
  for (let k = 0; k < n; k++) {
    const at = rng.int(0, out.length);
    const byte = rng.chance(0.6) ? rng.pick(INTERESTING) : rng.int(0, 255);
    switch (rng.int(0, 5)) {
      case 0:
        out[at] = byte;
        break;
      case 1:
        out.splice(at, 0, byte);
        break;
      case 2:
        out.splice(at, rng.int(1, 40));
        break;
      case 3:
        out.splice(at, 0, ...out.slice(at, at + rng.int(1, 200)));
        break;
      case 4:
        out.length = Math.min(out.length, at);
        break;
      default:
        out.splice(
          at,
          0,
          ...Array.from(
            Buffer.from(
              rng.pick([
                '\r\n',
                '\r',
                '---\n',
                '```\n',
                '# Task Group: x\n',
                '## Thread `',
                '#### 2026-02-30\n',
                '- rollout_summaries/',
                '\uFEFF',
                '[[',
                '](',
                ' — ',
              ]),
            ),
          ),
        );
        break;
    }
  }
  return Uint8Array.from(out);
}

describe('hostile inputs', () => {
  it('truncated files at many points (including inside surrogate pairs)', () => {
    for (const s of samples) {
      for (const cut of [0, 1, 2, 3, 7, Math.floor(s.text.length / 3), Math.floor(s.text.length / 2), s.text.length - 1])
        check(s.text.slice(0, cut), s.path);
      const emoji = s.text.search(/[\uD800-\uDBFF]/);
      if (emoji >= 0) check(s.text.slice(0, emoji + 1), s.path);
    }
  });

  it('files decoded with the wrong encoding (latin1) and text with lone surrogates', () => {
    for (const s of samples) {
      check(Buffer.from(s.text, 'utf8').toString('latin1'), s.path);
      check(s.text.replace(/e/g, '\uD800').replace(/a/g, '\uDFFF'), s.path);
    }
  });

  it('every kind on every sample (a kind forced on the wrong content)', () => {
    for (const s of samples.slice(-8)) for (const kind of parsedKinds) check(s.text, s.path, kind);
  });

  it('a 100,000-line file of each big kind parses, with capped diagnostics', () => {
    const bullets = Array.from({ length: 100_000 }, (_, i) => `* item ${i} **bold** [Task ${i}]`).join('\n');
    for (const [path, text] of [
      ['MEMORY.md', `# Task Group: huge\n${bullets}\n`],
      [
        'memory_summary.md',
        `## What's in Memory\n### s\n#### nope\n${Array.from({ length: 100_000 }, (_, i) => `- rollout_summaries/${i}.md - broken ${i}`).join('\n')}`,
      ],
      ['raw_memories.md', Array.from({ length: 25_000 }, (_, i) => `## Thread ${i}\nx: y\n---\ntask_outcome: maybe`).join('\n')],
      ['/home/u/.claude/projects/p/memory/MEMORY.md', Array.from({ length: 100_000 }, (_, i) => `- [t${i}](t${i}.md) — d`).join('\r\n')],
    ] as const) {
      const t0 = performance.now();
      const parsed = parseMemoryFile(text, { path });
      const ms = performance.now() - t0;
      expect(parsed.lineCount).toBeGreaterThanOrEqual(100_000);
      console.log(`[formats] 100,000-line ${path}: ${ms.toFixed(0)} ms`);
      const perRule = new Map<string, number>();
      for (const d of parsed.diagnostics) perRule.set(d.rule, (perRule.get(d.rule) ?? 0) + 1);
      for (const [rule, n] of perRule) expect(n, rule).toBeLessThanOrEqual(MAX_DIAGNOSTICS_PER_RULE + 1);
      assertInvariants(parsed, text);
    }
  });

  it('seeded random byte mutations of valid files (400 iterations)', () => {
    const rng = new Rng(20_260_305);
    const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
    for (let i = 0; i < 400; i++) {
      const s = rng.pick(samples);
      const bytes = mutate(rng, Buffer.from(s.text, 'utf8'));
      check(lenient.decode(bytes), s.path);
      if (i % 4 === 0) check(Buffer.from(bytes).toString('latin1'), s.path);
    }
  });
});
