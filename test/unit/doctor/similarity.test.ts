// Similarity on realistic memory: repeated and reworded learnings are duplicates; distinct blocks of one project are not.
import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_THRESHOLD,
  jaccard,
  normalisedLine,
  shingles,
  similarityGraph,
  similarPairs,
  starClusters,
} from '../../../electron/core/doctor/similarity';

const lines = (text: string) => text.trim().split('\n');
const sim = (a: string, b: string) => jaccard(shingles(lines(a)), shingles(lines(b)));

// A block as Codex's consolidation writes it, and the same learning written again a week later (other ticket,
// other dates and sessions): Codex's "ledger of the same learning repeated".
const INGESTION = `# Task Group: data-pipeline ingestion
scope: CSV ingestion, encodings and schema checks in data-pipeline
applies_to: cwd=/home/dana/src/data-pipeline; reuse_rule=safe while partner files arrive over SFTP
## Task 1: fix mojibake in partner CSV import (#5631), success
### rollout_summary_files
- rollout_summaries/2026-11-30T11-18-29-989X-shift_jis_csv_import.md (cwd=/home/dana/src/data-pipeline, updated_at=2026-11-30T11:28:49+00:00, thread_id=01a22c2d-80ef-7af7-8f14-04cd7d31ce21, the fix was verified by the user)
### keywords
- Shift_JIS, cp932, mojibake, encoding check
## User preferences
- the user wants data problems to fail loudly instead of being silently repaired (ticket #5631, 2026-11-30) [Task 1]
## Reusable knowledge
- partner files from the Osaka office are cp932 (Shift_JIS superset); read with encoding="cp932" [Task 1]
- added a check that rejects U+FFFD in headers; evidence: \`python -m pipeline.ingest --source osaka --dry-run\` [Task 1]
## Failures and how to do differently
- symptom: UnicodeDecodeError on byte 0x83 -> chardet guessed ISO-8859-1; use the partner's declared encoding instead of guessing (seen 2026-11-30) [Task 1]`;

const INGESTION_AGAIN = `# Task Group: data-pipeline ingestion, earlier work 2026-11-19 to 2026-11-23
scope: CSV ingestion, encodings and schema checks in data-pipeline
applies_to: cwd=/home/dana/src/data-pipeline; reuse_rule=safe while partner files arrive over SFTP
## Task 1: fix mojibake in partner CSV import (#2477), partial
### rollout_summary_files
- rollout_summaries/2026-11-21T08-05-04-9tv4-shift_jis_csv_import.md (cwd=/home/dana/src/data-pipeline, updated_at=2026-11-21T08:58:57+00:00, thread_id=01a21c09-5976-7069-a346-65bc4f66ab52, the main issue was fixed; a follow-up remains open)
### keywords
- Shift_JIS, cp932, mojibake, encoding check
## User preferences
- the user wants data problems to fail loudly instead of being silently repaired (ticket #2477, 2026-11-21) [Task 1]
## Reusable knowledge
- partner files from the Osaka office are cp932 (Shift_JIS superset); read with encoding="cp932" [Task 1]
- added a check that rejects U+FFFD in headers; evidence: \`python -m pipeline.ingest --source osaka --dry-run\` [Task 1]
## Failures and how to do differently
- symptom: UnicodeDecodeError on byte 0x83 -> chardet guessed ISO-8859-1; use the partner's declared encoding instead of guessing (seen 2026-11-21) [Task 1]`;

// The same lesson reworded by a later consolidation: a new title, a bullet added, one reworded, one dropped.
const I18N = `# Task Group: webapp i18n copy
scope: German and English product copy in webapp
applies_to: cwd=/home/dana/src/webapp; reuse_rule=safe while locales live in locales/*.json
## Task 1: add German translations for the checkout page, success
### keywords
- i18n, de.json, Sie form, sorted keys
## User preferences
- German copy must use the formal "Sie" form [Task 1]
## Reusable knowledge
- locales/de.json keys must stay sorted; run \`npm run i18n:check\` before committing [Task 1]
- plural forms go through \`t(key, { count })\`, never string concatenation [Task 1]
## Failures and how to do differently
- symptom: CI fails with "unsorted keys" -> cause: keys appended at the end -> fix: run \`npm run i18n:sort\` [Task 1]`;

const I18N_REWORDED = `# Task Group: webapp German translations
scope: translating webapp UI copy into German
applies_to: cwd=/home/dana/src/webapp; reuse_rule=safe while locales live in locales/*.json
## Task 1: translate the account settings page into German, success
### keywords
- i18n, de.json, formal Sie, sorted keys
## User preferences
- German copy must use the formal "Sie" form, never "du" [Task 1]
## Reusable knowledge
- locales/de.json keys must stay sorted; run \`npm run i18n:check\` before committing [Task 1]
- the translation team reviews de.json pull requests on Thursdays [Task 1]
## Failures and how to do differently
- symptom: CI fails with "unsorted keys" -> cause: new keys appended at the end -> fix: run \`npm run i18n:sort\` [Task 1]`;

// Distinct blocks of the same project: same cwd, project name, tools and template, different subject.
const SCHEDULING = `# Task Group: data-pipeline scheduling
scope: Airflow DAG scheduling, retries and alerting in data-pipeline
applies_to: cwd=/home/dana/src/data-pipeline; reuse_rule=safe while the pipeline runs on Airflow 2.x
## Task 1: make the nightly DAG retry transient S3 errors (#4410), success
### rollout_summary_files
- rollout_summaries/2026-11-30T09-02-51-bxjP-airflow_retries_s3.md (cwd=/home/dana/src/data-pipeline, updated_at=2026-11-30T09:40:00+00:00, thread_id=01a22b9f-1111-7000-8000-000000000001, the fix was verified by the user)
### keywords
- airflow, retries, retry_exponential_backoff, SlowDown, on_failure_callback
## User preferences
- the user wants an alert on final failure, not on every retry [Task 1]
## Reusable knowledge
- set \`retries=4, retry_exponential_backoff=True\` in default_args; alert from \`on_failure_callback\` only [Task 1]
- run \`python -m pipeline.ingest --source osaka --dry-run\` after changing the DAG to check the imports [Task 1]
## Failures and how to do differently
- symptom: S3 SlowDown during the nightly run -> cause: no retries configured -> fix: exponential backoff [Task 1]`;

const INVOICE_CI = `# Task Group: invoice-svc CI and test stability
scope: flaky tests and CI image quirks in invoice-svc; not renderer feature work
applies_to: cwd=/home/dana/src/invoice-svc; reuse_rule=safe while the CI image is ubuntu-22 based
## Task 1: fix flaky PDF export test, success
### keywords
- pdf export, FONTCONFIG_FILE, glyph width, pytest -k export
## User preferences
- when tests fail, the user asked "tell me what broke before touching code" -> explain cause first [Task 1]
## Reusable knowledge
- export tests depend on system fonts; pin with FONTCONFIG_FILE=tests/fonts.conf [Task 1]
- run \`pytest -k export -p no:randomly\` to reproduce ordering problems [Task 1]`;

const INVOICE_TAX = `# Task Group: invoice-svc money and tax rules
scope: money, rounding and VAT rules in invoice-svc
applies_to: cwd=/home/dana/src/invoice-svc; reuse_rule=safe until the billing engine is replaced
## Task 1: fix rounding of invoice totals, success
### keywords
- Decimal, ROUND_HALF_UP, VAT, pytest
## User preferences
- the user insisted "Decimal everywhere, no floats" -> never use float for money [Task 1]
## Reusable knowledge
- invoice totals must round per line, then sum; accounting rounds with ROUND_HALF_UP, not banker's rounding [Task 1]
- run \`pytest -k totals\` after touching the rounding code [Task 1]`;

describe('normalisation', () => {
  it('replaces numbers, dates, ids and rollout files, and drops template lines', () => {
    expect(normalisedLine('- fix mojibake (#5631) on 2026-11-30T11:28:49+00:00 [Task 2]')).toBe('fix mojibake #<n> on <date>');
    expect(normalisedLine('- see rollout_summaries/2026-11-30T11-18-29-989X-x.md; thread_id=01a22c2d-80ef-7af7-8f14-04cd7d31ce21')).toBe(
      'see <file>',
    );
    expect(normalisedLine('### keywords')).toBe('');
    expect(normalisedLine('applies_to: cwd=/home/dana/src/webapp; reuse_rule=x')).toBe('');
    expect(normalisedLine('- rollout_summaries/a.md (cwd=/x, thread_id=1)')).toBe('');
  });
});

describe('similarity', () => {
  it('scores a learning written again by a later consolidation near 1', () => {
    expect(sim(INGESTION, INGESTION_AGAIN)).toBeGreaterThan(0.85);
  });

  it('scores the same lesson reworded above the threshold', () => {
    const s = sim(I18N, I18N_REWORDED);
    expect(s).toBeGreaterThanOrEqual(DUPLICATE_THRESHOLD);
    expect(s).toBeLessThan(0.85);
  });

  it('keeps distinct blocks of the same project far below the threshold', () => {
    for (const [a, b] of [
      [INGESTION, SCHEDULING],
      [INGESTION_AGAIN, SCHEDULING],
      [INVOICE_CI, INVOICE_TAX],
      [I18N, INVOICE_CI],
    ] as [string, string][]) {
      expect(sim(a, b)).toBeLessThan(DUPLICATE_THRESHOLD / 3);
    }
  });

  it('does not call two bullets on a related subject duplicates', () => {
    const a = ['- the user insisted "Decimal everywhere, no floats" -> never use float for money'];
    const b = ['- invoice totals must round per line, then sum; accounting rounds with ROUND_HALF_UP'];
    expect(jaccard(shingles(a), shingles(b))).toBe(0);
  });
});

describe('clusters', () => {
  it('joins exactly the near-duplicates and keeps the topmost', () => {
    const blocks = [
      INGESTION,
      SCHEDULING,
      I18N,
      INVOICE_CI,
      INGESTION_AGAIN,
      INVOICE_TAX,
      I18N_REWORDED,
      INGESTION_AGAIN.replace('#2477', '#9999'),
    ];
    const sets = blocks.map((b) => shingles(lines(b)));
    const pairs = similarPairs(sets);
    // The prefix-filtered join finds exactly what all pairs would.
    const brute = [];
    for (let a = 0; a < sets.length; a++)
      for (let b = a + 1; b < sets.length; b++) if (jaccard(sets[a]!, sets[b]!) >= DUPLICATE_THRESHOLD) brute.push(`${a}-${b}`);
    expect(pairs.map((p) => `${p.a}-${p.b}`)).toEqual(brute);
    const clusters = starClusters(similarityGraph(sets));
    expect(clusters.map((c) => [c.keep, ...c.members.map((m) => m.index)])).toEqual([
      [0, 4, 7],
      [2, 6],
    ]);
  });

  it('never chains: a member is always similar to the kept entry', () => {
    // b is close to a and to c; a and c are not close: c must not join a's cluster through b.
    const a = ['alpha beta gamma delta epsilon zeta eta theta'];
    const b = ['alpha beta gamma delta epsilon zeta iota kappa lambda mu'];
    const c = ['epsilon zeta iota kappa lambda mu nu xi omicron pi'];
    const sets = [a, b, c].map(shingles);
    const clusters = starClusters(similarityGraph(sets, 0.3));
    for (const cluster of clusters)
      for (const m of cluster.members) expect(jaccard(sets[cluster.keep]!, sets[m.index]!)).toBeGreaterThanOrEqual(0.3);
  });
});
