// Promotion: what of a memory entry becomes a project rule, and the AGENTS.md text that holds it.
import { join } from 'node:path';
import type { DoctorEntry } from '../../../shared/doctor';
import { StudioFailure } from '../platform/errors';
import { checkProjectDir, PROJECT_DOC_MAX_BYTES, readProjectFile, type ProjectWriteName } from '../codex/project-file';
import { refuseNewSecrets } from '../lint/project-secrets';
import type { EntryModel } from '../review/blocks/entries';
import { withoutTaskRefs } from './fix-edits';
import { jaccard, normalisedLine, shingles } from './similarity';

const SUB = /^\s*-\s*(desc|learnings)\s*:\s*/i;

/** The rule lines of an entry: a task group's bullets, a topic's learnings (else its desc), a pointer's sentence, a bullet. */
function rulesOf(model: EntryModel): string[] {
  const { entry } = model;
  if (entry.kind === 'summary-entry') {
    const learnings = model.statements.filter((s) => /^\s*-\s*learnings\s*:/i.test(s.text));
    const desc = model.statements.filter((s) => /^\s*-\s*desc\s*:/i.test(s.text));
    const chosen = learnings.length > 0 ? learnings : desc;
    if (chosen.length > 0)
      return chosen.map((s) =>
        s.text
          .replace(SUB, '')
          .replace(/\s*\(rollout_summaries\/[^)]*\)/g, '')
          .trim(),
      );
    return [entry.title];
  }
  return model.statements.map((s) =>
    withoutTaskRefs(s.text)
      .replace(/^\s*[-*]\s+/, '')
      .trim(),
  );
}

/** Two rules this alike (Jaccard of their word shingles) say one thing: the longer wording is kept. */
const SAME_RULE = 0.5;

/** The bullets a promotion writes: every rule of the entries once (numbers, dates and small rewordings are one rule). */
export function promotedBullets(models: readonly EntryModel[]): string[] {
  const chosen: { text: string; shingles: Uint32Array }[] = [];
  for (const model of models) {
    for (const rule of rulesOf(model)) {
      if (rule === '' || normalisedLine(rule) === '') continue;
      const own = shingles([rule]);
      const twin = chosen.findIndex((c) => jaccard(c.shingles, own) >= SAME_RULE);
      const held = chosen[twin];
      if (held === undefined) chosen.push({ text: rule, shingles: own });
      else if (rule.length > held.text.length) chosen[twin] = { text: rule, shingles: own };
    }
  }
  return chosen.map((c) => `- ${c.text}`);
}

export interface PromotionTarget {
  dir: string;
  name: ProjectWriteName;
  base: string | null;
}

/**
 * Where a project's rules go: the folder's AGENTS.override.md when it has one (Codex then reads it instead of
 * AGENTS.md there), else its AGENTS.md, created when absent. The folder and file pass the project-file checks.
 */
export async function promotionTarget(dir: string, memoryRoots: readonly string[]): Promise<PromotionTarget> {
  await checkProjectDir(dir, memoryRoots);
  const override = await readProjectFile(dir, 'AGENTS.override.md', memoryRoots);
  if (override && override.content.trim() !== '') return { dir, name: 'AGENTS.override.md', base: override.content };
  const agents = await readProjectFile(dir, 'AGENTS.md', memoryRoots);
  return { dir, name: 'AGENTS.md', base: agents?.content ?? null };
}

/** The instruction file with the promoted section appended (its own line endings kept); refuses an empty promotion and a secret. */
export function promotedText(target: PromotionTarget, entry: DoctorEntry, bullets: readonly string[], today: string): string {
  if (bullets.length === 0) {
    throw new StudioFailure('Invalid', `${entry.file} line ${entry.line} ("${entry.title}") holds no rule or learning to promote.`, {
      hint: "Promote an entry with bullets (a task group's preferences, knowledge or failures, a topic's learnings), or edit AGENTS.md by hand.",
    });
  }
  const eol = target.base?.includes('\r\n') ? '\r\n' : '\n';
  const heading = entry.kind === 'task-group' ? entry.title : entry.scope ? `${entry.scope}: ${entry.title}` : entry.title;
  const section = [
    `## ${heading.replace(/\s+/g, ' ').slice(0, 120)}`,
    '',
    `<!-- Promoted from Codex memory (${entry.version} ${entry.file}) by Memory Studio on ${today}. -->`,
    '',
    ...bullets,
    '',
  ].join(eol);
  const base = target.base === null || target.base.trim() === '' ? null : target.base.endsWith('\n') ? target.base : `${target.base}${eol}`;
  const text = base === null ? `# ${target.name}${eol}${eol}${section}` : `${base}${eol}${section}`;
  // The secret gate of every write outside the memory roots, said here with the entry it would come from.
  refuseNewSecrets(
    join(target.dir, target.name),
    text,
    target.base,
    `The secret comes from ${entry.version} ${entry.file} line ${entry.line}: redact it there first (Files view, Redact), then promote again.`,
  );
  return text;
}

/** A sentence for the proposal's note when Codex would cut the result (project_doc_max_bytes). */
export function sizeNote(target: PromotionTarget, text: string): string | null {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= PROJECT_DOC_MAX_BYTES) return null;
  return `${join(target.dir, target.name)} would be ${Math.ceil(bytes / 1024)} KiB: Codex reads at most ${PROJECT_DOC_MAX_BYTES / 1024} KiB of project docs (project_doc_max_bytes), so the end may be cut.`;
}
