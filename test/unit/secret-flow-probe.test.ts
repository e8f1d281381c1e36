// The secret-flow probe of issue 30, repeatable: one fresh secret of every family the scanner covers is pushed through
// each way a secret could spread (a note through the builtin engine, an engine's result through validation, an entry
// into a project's AGENTS.md, a diff's and a stored proposal's review), and the look-alikes that once cried wolf are
// scanned in bulk.
// It prints tries, clean and defects per path; any defect fails the test.
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsolidation, readStagedInputs } from '../../electron/core/consolidate/engines/builtin';
import { inputSecret } from '../../electron/core/consolidate/preview-secrets';
import { validateResultFiles } from '../../electron/core/consolidate/validate';
import { newSecretFindings } from '../../electron/core/lint/project-secrets';
import { findSecretSpans, scanSecrets } from '../../electron/core/lint/secrets';
import { computeReviewHunks } from '../../electron/core/review/review-hunks';
import { readBases } from '../../electron/core/review/proposals';
import type { Hunk } from '../../shared/review';
import { generateHome } from '../fixtures';
import { makeTempDir } from './helpers';
import { FAMILIES, HEX_AND_UUID_LINES, rand, sample, type Family, type Sample } from './lint/secret-corpus';

interface Tally {
  tries: number;
  clean: number;
  defects: string[];
}
const tallies = new Map<string, Tally>();
const record = (path: string, family: string, clean: boolean, what = '') => {
  const t = tallies.get(path) ?? { tries: 0, clean: 0, defects: [] };
  tallies.set(path, t);
  t.tries += 1;
  if (clean) t.clean += 1;
  else t.defects.push(`${family}${what ? `: ${what}` : ''}`);
};

/** A sample the scanner finds on its own (recall is the recall test's figure; this probe measures the flow). */
const redraws: string[] = [];
function found(family: Family): Sample {
  for (let attempt = 0; attempt < 5; attempt++) {
    const s = sample(family);
    const at = s.text.indexOf(s.secret);
    if (findSecretSpans(s.text).some((c) => c.start < at + s.secret.length && c.end > at)) return s;
    redraws.push(family.name);
  }
  throw new Error(`${family.name}: no sample found in 5 draws`);
}

/** The secret's random middle: present in a text means the secret (or enough of it) got through. */
const middleOf = (secret: string) => secret.slice(Math.floor(secret.length / 2) - 6, Math.floor(secret.length / 2) + 6);

let temp: { dir: string; cleanup: () => Promise<void> };
let live: string;
let baseMemory: string;

beforeAll(async () => {
  temp = await makeTempDir();
  const manifest = await generateHome({
    dir: join(temp.dir, 'home'),
    scale: 'small',
    version: 'v1',
    seed: 30,
    git: false,
    now: new Date(),
  });
  live = join(manifest.codexHome, 'memories');
  baseMemory = (await import('node:fs')).readFileSync(join(live, 'MEMORY.md'), 'utf8');
});

afterAll(async () => {
  const lines = [...tallies].map(([path, t]) => `  ${path}: ${t.tries} tries, ${t.clean} clean, ${t.defects.length} defects`);
  const total = [...tallies.values()].reduce((n, t) => ({ tries: n.tries + t.tries, clean: n.clean + t.clean }), { tries: 0, clean: 0 });
  console.info(
    `secret-flow probe: ${total.tries} tries, ${total.clean} clean, ${total.tries - total.clean} defects` +
      ` (${redraws.length} sample(s) redrawn because the scanner missed them)\n${lines.join('\n')}`,
  );
  await temp.cleanup();
});

describe('secret-flow probe', () => {
  it('a note holding a secret, through the builtin engine: neither memory_summary.md nor MEMORY.md carries it', async () => {
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    for (const family of FAMILIES) {
      const staging = join(temp.dir, 'staging');
      await rm(staging, { recursive: true, force: true });
      await cp(live, staging, { recursive: true });
      const s = found(family);
      await mkdir(join(staging, 'extensions/ad_hoc/notes'), { recursive: true });
      await writeFile(join(staging, `extensions/ad_hoc/notes/${stamp}-probe.md`), `# Probe note\n\n${s.text}`);
      const out = buildConsolidation(await readStagedInputs(staging, 'v1'), 'v1');
      const leaked = [...out.files].filter(([, text]) => text.includes(middleOf(s.secret))).map(([path]) => path);
      const flagged = [...out.files].filter(([, text]) => scanSecrets(text).length > 0).map(([path]) => path);
      record('builtin engine', family.name, leaked.length === 0 && flagged.length === 0, [...leaked, ...flagged].join(', '));
    }
    expect(tallies.get('builtin engine')?.defects).toEqual([]);
  });

  it("an engine's result holding a secret fails validation on its line; the preview marks the note", () => {
    for (const family of FAMILIES) {
      const s = found(family);
      const result = `${baseMemory}\n${s.text}`;
      // The lines the secret covers (a private key spans many; the finding names the first line of its material).
      const first = result.slice(0, result.indexOf(s.secret)).split('\n').length;
      const last = first + s.secret.split('\n').length - 1;
      const v = validateResultFiles(new Map([['MEMORY.md', result]]), 'v1', { live: new Map([['MEMORY.md', baseMemory]]) });
      const onLine = v.diagnostics.some(
        (d) => d.severity === 'error' && d.rule.startsWith('secrets/') && d.line >= first && d.line <= last,
      );
      record('validation', family.name, !v.ok && onLine, `ok=${v.ok}, lines ${first}-${last}`);
      record('preview', family.name, inputSecret('extensions/ad_hoc/notes/probe.md', s.text) !== null);
    }
    expect(tallies.get('validation')?.defects).toEqual([]);
    expect(tallies.get('preview')?.defects).toEqual([]);
  });

  it("a promotion into a project's AGENTS.md is refused when the new lines hold a secret", () => {
    const agents = '# AGENTS.md\n\n## Tooling\n- Use pnpm.\n';
    for (const family of FAMILIES) {
      const s = found(family);
      const text = `${agents}\n## Promoted\n\n${s.text}`;
      record('promotion gate', family.name, newSecretFindings(text, agents).length > 0);
    }
    expect(tallies.get('promotion gate')?.defects).toEqual([]);
  });

  it('a diff of real texts adding a block with a secret: the secret lines are marked and in a hunk of their own', () => {
    for (const family of FAMILIES) {
      const s = found(family);
      const block = `# Task Group: probe\n\nscope: probe work\napplies_to: cwd=/src/probe; reuse_rule=safe\n\n## Reusable knowledge\n\n- before the secret\n${s.text}- after the secret\n\n`;
      const proposed = block + baseMemory;
      const hunks = computeReviewHunks(baseMemory, proposed, { relPath: 'MEMORY.md', version: 'v1' });
      const holding = hunks.filter((h) => h.lines.some((l) => l.startsWith('+') && l.includes(middleOf(s.secret))));
      const alone = holding.every((h) => (h.secrets ?? []).length > 0 && !h.lines.some((l) => l === '+- before the secret'));
      record('review', family.name, holding.length > 0 && alone, `${holding.length} hunk(s) hold it`);
    }
    expect(tallies.get('review')?.defects).toEqual([]);
  });

  it("a stored proposal's review: a kept secret in context and a redaction's removed line are marked, masked", async () => {
    for (const family of FAMILIES) {
      const s = found(family);
      const block = `# Task Group: probe\n\nscope: probe work\napplies_to: cwd=/src/probe; reuse_rule=safe\n\n## Reusable knowledge\n\n- before the secret\n${s.text}- after the secret\n\n`;
      const withSecret = block + baseMemory;
      await writeFile(join(live, 'MEMORY.md'), withSecret);
      const file = { version: 'v1' as const, root: live, relPath: 'MEMORY.md' };
      // As a proposal is made: the texts masked, the hunks between them, the marks from what masking recorded.
      // The edit: the line right after the secret's (last) line, so the secret is in the hunk's context.
      const lines = withSecret.split('\n');
      const at = lines.findIndex((l) => l.includes(s.secret.split('\n').at(-1) as string)) + 1;
      lines[at] = `${lines[at] ?? ''} (edited)`;
      const [edit, redaction] = await readBases([
        { ...file, proposedContent: lines.join('\n') },
        { ...file, proposedContent: withSecret.replace(s.secret, '[REDACTED_SECRET]') },
      ]);
      const signs = (hunks: readonly Hunk[]) => hunks.flatMap((h) => (h.secrets ?? []).map((m) => (h.lines[m.index] as string)[0]));
      const kept = signs(edit?.hunks ?? []).includes(' ');
      const removed = signs(redaction?.hunks ?? []).includes('-');
      const clear = !JSON.stringify([edit, redaction]).includes(middleOf(s.secret));
      record('review (stored)', family.name, kept && removed && clear, `context ${kept}, removed ${removed}, masked ${clear}`);
    }
    await writeFile(join(live, 'MEMORY.md'), baseMemory);
    expect(tallies.get('review (stored)')?.defects).toEqual([]);
  });

  it('commit ids, object ids, sha256 digests and UUIDs in memory-file sentences raise no alarm', () => {
    for (let file = 0; file < 20; file++) {
      const lines = Array.from({ length: 30 }, (_, i) =>
        (HEX_AND_UUID_LINES[(i + file) % HEX_AND_UUID_LINES.length] as (sha: string) => string)(rand('0123456789abcdef', 40)),
      );
      const alarms = new Set(scanSecrets(lines.join('\n')).map((f) => f.line));
      lines.forEach((line, i) => record('look-alikes (lines)', 'hex/uuid', !alarms.has(i + 1), line));
    }
    expect(tallies.get('look-alikes (lines)')?.defects).toEqual([]);
  });
});
