// `reference/note-pointer`: a rollout_summaries/… path inside an ad-hoc note, a skill or an extension's instructions that
// leads nowhere is flagged with its file and line, from the files and from the index alike.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { inspectHome } from '../../../electron/core/codex/home';
import { lintWithIndex } from '../../../electron/core/index-store/inspect';
import { IndexManager } from '../../../electron/core/index-store/manager';
import { addReferenceLint, emptyReport, mergeLintReports } from '../../../electron/core/inspect/reference-lint';
import { parserLintRule } from '../../../electron/core/inspect/parser-lint';
import { lintRoot } from '../../../electron/core/lint';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const NOW = new Date('2026-11-20T12:00:00Z');
const GONE = 'rollout_summaries/2026-01-01T00-00-00-AAAA-gone.md';
const NOTE = 'extensions/ad_hoc/notes/2026-11-20T12-00-00-deploy.md';
const SKILL = 'skills/deploy-check/SKILL.md';
const INSTRUCTIONS = 'extensions/team_notes/instructions.md';
let tmp: { dir: string; cleanup: () => Promise<void> };
let home: HomeInfo;
let dataDir: string;
let root: string;
let existing: string;

beforeAll(async () => {
  tmp = await makeTempDir();
  const manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'v1', seed: 5, now: NOW });
  home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
  dataDir = join(tmp.dir, 'data');
  root = home.roots.find((r) => r.version === 'v1')?.path as string;
  existing = `rollout_summaries/${(await readdir(join(root, 'rollout_summaries'))).sort()[0]}`;
  await mkdir(join(root, 'extensions/ad_hoc/notes'), { recursive: true });
  await writeFile(join(root, NOTE), `# Deploy\n\nSee ${existing} for the first run.\nThe fix is in \`${GONE}\`.\n`);
  await mkdir(join(root, 'skills/deploy-check'), { recursive: true });
  await writeFile(
    join(root, SKILL),
    `---\nname: deploy-check\ndescription: Checks a deploy\n---\n\n# Deploy check\n\n- read ${GONE} first\n`,
  );
  await mkdir(join(root, 'extensions/team_notes'), { recursive: true });
  await writeFile(join(root, INSTRUCTIONS), `Team notes.\n\nThe incident: memories/${GONE}\n`);
});
afterAll(() => tmp.cleanup());

async function fromFiles(version: MemoryVersion): Promise<LintReport> {
  const own = await lintRoot(root, version, { maxUnusedDays: home.config.memories.maxUnusedDays, extraRules: [parserLintRule] });
  return mergeLintReports(own, await addReferenceLint(emptyReport(version), home, version, root, undefined, NOW));
}

const notePointers = (report: LintReport) =>
  report.files.flatMap((f) => f.diagnostics.filter((d) => d.rule === 'reference/note-pointer').map((d) => ({ path: f.path, d })));

describe('reference/note-pointer', () => {
  it('flags a missing rollout summary named in a note, a skill and instructions, with file, line and what to do', async () => {
    const found = notePointers(await fromFiles('v1'));
    expect(found.map((f) => `${f.path}:${f.d.line}`).sort()).toEqual([`${INSTRUCTIONS}:3`, `${NOTE}:4`, `${SKILL}:8`].sort());
    const note = found.find((f) => f.path === NOTE)?.d;
    expect(note?.severity).toBe('warning');
    expect(note?.message).toContain(`${NOTE} line 4 points at ${GONE}`);
    expect(note?.message).toContain('does not exist in rollout_summaries/');
    expect(note?.message).toMatch(/Change the path to an existing rollout summary, or remove the reference\./);
    // The existing summary the note also names is not flagged.
    expect(found.some((f) => f.d.message.includes(existing))).toBe(false);
  });

  it('the index answers the same', async () => {
    const manager = new IndexManager({ dataDir, scanOnPool: false });
    try {
      const indexed = await manager.fresh(home);
      if (!indexed) throw new Error(manager.status().message);
      const fromIndex = notePointers(await lintWithIndex(indexed, 'v1', undefined, NOW));
      expect(fromIndex).toEqual(notePointers(await fromFiles('v1')));
      expect(fromIndex).toHaveLength(3);
    } finally {
      manager.dispose();
    }
  });
});
