// The Apply gate of a consolidation proposal: the files as they would land must pass Codex's own artifact checks and hold no secret.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type { ProposalResult } from '../../../shared/review';
import { FILES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { APPLY_SECRET_HINT } from '../consolidate/secret-gate';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { validateResultFiles } from '../consolidate/validate';
import { maskSecretsInText } from '../lint/mask-secrets';

const SUMMARIES = `${FILES.rolloutSummariesDir}/`;

/** What `rollout_summaries/` will hold after Apply: today's files, plus the result's creations, minus its deletions. */
async function summariesAfter(root: string, files: ProposalResult['files']): Promise<Set<string>> {
  const names = new Set(
    (await readdir(join(root, FILES.rolloutSummariesDir), { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isFile())
      .map((e) => e.name),
  );
  for (const f of files) {
    if (!f.relPath.startsWith(SUMMARIES) || f.action === 'unchanged') continue;
    const name = f.relPath.slice(SUMMARIES.length);
    if (f.action === 'delete') names.delete(name);
    else names.add(name);
  }
  return names;
}

/**
 * Refuses (Invalid, naming file and line) when the accepted result would fail Codex's validation in any root. Its
 * secret part is defence in depth: a run whose result holds a secret is never proposed, but the result as it lands
 * (real lines from the live files) still holds one when the person rejected the hunk that redacts a live file's secret.
 */
export async function gateConsolidationResult(result: ProposalResult): Promise<void> {
  const roots = new Map<string, MemoryVersion>(result.files.map((f) => [f.root, f.version]));
  for (const [root, version] of roots) {
    const files = result.files.filter((f) => f.root === root);
    const landing = new Map<string, string | null>();
    const live = new Map<string, string | null>();
    const liveText = async (name: string) =>
      (live.has(name)
        ? live.get(name)
        : readRegularFile(join(root, name), name, NO_CAP).then(
            (file) => file.bytes.toString('utf8'),
            () => null,
          )) ?? null;
    for (const name of version === 'v1' ? [FILES.summary, FILES.memory] : [FILES.summary]) live.set(name, await liveText(name));
    for (const name of version === 'v1' ? [FILES.summary, FILES.memory] : [FILES.summary]) {
      const decided = files.find((f) => f.relPath === name && f.action !== 'unchanged');
      landing.set(name, decided ? decided.content : (live.get(name) ?? null));
    }
    // Every other Markdown file the result writes (rollout summaries, skills, raw memories) passes the secret gate too.
    for (const f of files) {
      if (f.action !== 'write' || landing.has(f.relPath) || !f.relPath.endsWith('.md')) continue;
      landing.set(f.relPath, f.content);
      live.set(f.relPath, await liveText(f.relPath));
    }
    const validation = validateResultFiles(landing, version, { rolloutSummaries: await summariesAfter(root, files), live });
    const errors = validation.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) {
      const list = errors
        .slice(0, 5)
        .map((d) => `${d.path}:${d.line} ${d.message}`)
        .join(' ');
      // The result is validated as it lands, real lines included: a diagnostic quoting one (a pointer) never shows its secret.
      throw new StudioFailure(
        'Invalid',
        maskSecretsInText(`This consolidation result would fail Codex's validation, so it was not applied: ${list}`),
        {
          path: join(root, errors[0]?.path ?? FILES.summary),
          hint: errors.some((d) => d.rule.startsWith('secrets/'))
            ? APPLY_SECRET_HINT
            : 'Fix the file in the review (Edit result), or reject the hunks that break it; nothing was written.',
        },
      );
    }
  }
}
