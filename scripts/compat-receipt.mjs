// The parts of `npm run compat` that only compute: what differs between two releases' captures, the receipt's Markdown
// (docs/compat/VERSION.md) and the data module the app reads (electron/core/codex-schema/verified.ts).

/** `codex features list` lines as { name, stage, enabled }; anything else it prints (warnings) is left out. */
export function parseFeatures(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9_]+)\s{2,}(\S.*?)\s{2,}(true|false)\s*$/.exec(line.trimEnd());
    if (m) out.push({ name: m[1], stage: m[2], enabled: m[3] === 'true' });
  }
  return out;
}

const objectKey = (o) => `${o.type} ${o.name}`;

/** Migrations, schema objects, pragmas and seed tables of one DB file: how `after` differs from `before`. */
function diffDatabase(before, after) {
  const mb = new Map(before.migrations.map((m) => [m.version, m]));
  const ma = new Map(after.migrations.map((m) => [m.version, m]));
  const migrations = {
    added: after.migrations.filter((m) => !mb.has(m.version)).map(({ version, description }) => ({ version, description })),
    removed: before.migrations.filter((m) => !ma.has(m.version)).map(({ version, description }) => ({ version, description })),
    changed: after.migrations
      .filter((m) => mb.has(m.version) && mb.get(m.version).checksum !== m.checksum)
      .map(({ version, description }) => ({ version, description })),
  };
  const ob = new Map(before.objects.map((o) => [objectKey(o), o]));
  const oa = new Map(after.objects.map((o) => [objectKey(o), o]));
  const objects = {
    added: after.objects.filter((o) => !ob.has(objectKey(o))).map(objectKey),
    removed: before.objects.filter((o) => !oa.has(objectKey(o))).map(objectKey),
    changed: after.objects.filter((o) => ob.has(objectKey(o)) && ob.get(objectKey(o)).sql !== o.sql).map(objectKey),
  };
  const pragmas = Object.keys(after.pragmas)
    .filter((k) => before.pragmas[k] !== after.pragmas[k])
    .map((k) => `${k} ${before.pragmas[k]} → ${after.pragmas[k]}`);
  const seedTables = [...new Set([...Object.keys(before.seedRows), ...Object.keys(after.seedRows)])]
    .filter((t) => JSON.stringify(seedShape(before.seedRows[t])) !== JSON.stringify(seedShape(after.seedRows[t])))
    .sort();
  return { migrations, objects, pragmas, seedTables };
}

/** Seed rows with their times (`…_at` numbers) left out: those are the moment the capture ran. */
function seedShape(rows) {
  return (rows ?? []).map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' && k.endsWith('_at') ? '<time>' : v])),
  );
}

function isEmptyDbDiff(d) {
  return (
    [d.migrations.added, d.migrations.removed, d.migrations.changed, d.objects.added, d.objects.removed, d.objects.changed].every(
      (list) => list.length === 0,
    ) &&
    d.pragmas.length === 0 &&
    d.seedTables.length === 0
  );
}

/** A flat object's keys: added, removed, and those whose value changed (cli_version left out: it always does). */
function diffRecord(before = {}, after = {}) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== 'cli_version').sort();
  return {
    added: keys.filter((k) => !(k in before)),
    removed: keys.filter((k) => !(k in after)),
    changed: keys
      .filter((k) => k in before && k in after && JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      .map((k) => `${k}: ${JSON.stringify(before[k])} → ${JSON.stringify(after[k])}`),
  };
}

function diffFeatures(before, after) {
  const fb = new Map(before.map((f) => [f.name, f]));
  const fa = new Map(after.map((f) => [f.name, f]));
  const line = (f) => `${f.name} (${f.stage}, ${f.enabled ? 'on' : 'off'} by default)`;
  return {
    added: after.filter((f) => !fb.has(f.name)).map(line),
    removed: before.filter((f) => !fa.has(f.name)).map(line),
    changed: after
      .filter((f) => fb.has(f.name) && (fb.get(f.name).stage !== f.stage || fb.get(f.name).enabled !== f.enabled))
      .map((f) => `${f.name}: ${line(fb.get(f.name)).slice(f.name.length + 1)} → ${line(f).slice(f.name.length + 1)}`),
  };
}

/** Everything that differs between two compat records (their captures and features). */
export function diffReleases(before, after) {
  const names = [...new Set([...Object.keys(before.capture.databases), ...Object.keys(after.capture.databases)])].sort();
  const databases = {};
  for (const name of names) {
    const [b, a] = [before.capture.databases[name], after.capture.databases[name]];
    if (!b) databases[name] = { file: 'added' };
    else if (!a) databases[name] = { file: 'removed' };
    else {
      const d = diffDatabase(b, a);
      if (!isEmptyDbDiff(d)) databases[name] = d;
    }
  }
  return {
    databases,
    threadRow: diffRecord(before.capture.session?.threadRow, after.capture.session?.threadRow),
    sessionMeta: diffRecord(before.capture.session?.sessionMeta, after.capture.session?.sessionMeta),
    features: diffFeatures(before.features ?? [], after.features ?? []),
  };
}

const code = (s) => `\`${String(s).replace(/`/g, "'")}\``;
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const migrationList = (list) => list.map((m) => `${m.version} (${m.description})`).join(', ');

function testRows(record) {
  const rows = ['| File | Test | Result |', '|---|---|---|'];
  for (const t of record.tests) {
    const why = t.status === 'failed' && t.message ? `: ${cell(t.message.split('\n')[0].slice(0, 300))}` : '';
    rows.push(`| ${code(t.file)} | ${cell(t.name)} | ${t.status}${why} |`);
  }
  return rows;
}

function databaseRows(record, previous) {
  const rows = [
    `| File | Migrations | Latest | New since ${previous ? previous.version : 'the previous verified release'} |`,
    '|---|---|---|---|',
  ];
  for (const [name, db] of Object.entries(record.capture.databases)) {
    const latest = db.migrations.at(-1);
    const before = previous?.capture.databases[name];
    const known = new Set((before?.migrations ?? []).map((m) => m.version));
    const fresh = previous ? db.migrations.filter((m) => !known.has(m.version)) : [];
    const freshText = !previous ? '(no earlier verified release)' : fresh.length === 0 ? 'none' : migrationList(fresh);
    rows.push(`| ${code(name)} | ${db.migrations.length} | ${latest ? `${latest.version} (${latest.description})` : '—'} | ${freshText} |`);
  }
  return rows;
}

function listSection(title, parts) {
  const lines = parts.filter(([, list]) => list.length > 0).map(([label, list]) => `- ${label}: ${list.join('; ')}`);
  return lines.length > 0 ? [`### ${title}`, '', ...lines, ''] : [`### ${title}`, '', '- no difference', ''];
}

function differenceLines(diff, previous) {
  const out = [`## What differs from ${previous.version}`, ''];
  const dbs = Object.entries(diff.databases);
  out.push('### Databases', '');
  if (dbs.length === 0) out.push('- no difference: same files, migrations (checksums too), schema objects and pragmas');
  for (const [name, d] of dbs) {
    if (d.file) {
      out.push(`- ${code(name)}: file ${d.file}`);
      continue;
    }
    const parts = [
      ['migrations added', d.migrations.added.map((m) => `${m.version} (${m.description})`)],
      ['migrations removed', d.migrations.removed.map((m) => `${m.version} (${m.description})`)],
      ['migrations changed (checksum)', d.migrations.changed.map((m) => `${m.version} (${m.description})`)],
      ['schema objects added', d.objects.added.map(code)],
      ['schema objects changed', d.objects.changed.map(code)],
      ['schema objects removed', d.objects.removed.map(code)],
      ['pragmas', d.pragmas],
      ['seed rows', d.seedTables.map(code)],
    ].filter(([, list]) => list.length > 0);
    out.push(`- ${code(name)}: ${parts.map(([label, list]) => `${label} ${list.join(', ')}`).join('; ')}`);
  }
  out.push('');
  out.push(
    ...listSection('What a session records (`threads` row and `session_meta` of a `codex exec` session, besides `cli_version`)', [
      ['threads columns added', diff.threadRow.added.map(code)],
      ['threads columns removed', diff.threadRow.removed.map(code)],
      ['threads values changed', diff.threadRow.changed.map(code)],
      ['session_meta keys added', diff.sessionMeta.added.map(code)],
      ['session_meta keys removed', diff.sessionMeta.removed.map(code)],
      ['session_meta values changed', diff.sessionMeta.changed.map(code)],
    ]),
  );
  out.push(
    ...listSection('`codex features list`', [
      ['added', diff.features.added.map(code)],
      ['removed', diff.features.removed.map(code)],
      ['changed', diff.features.changed.map(code)],
    ]),
  );
  return out;
}

/** The receipt: docs/compat/VERSION.md. */
export function receiptMarkdown(record, previous) {
  const verified = record.result === 'verified';
  const counts = record.interop;
  const lines = [
    `# Codex ${record.version}: ${verified ? 'verified' : 'not verified'}`,
    '',
    `Written by \`npm run compat\` (scripts/compat.mjs); do not edit by hand. How to verify a release: [README.md](README.md).`,
    '',
    `- Result: **${record.result}**${verified ? ' (every interop test passed)' : `: ${record.reason}`}`,
    `- Date: ${record.date}`,
    `- \`codex --version\`: ${record.codexVersionLine ? code(record.codexVersionLine) : 'no answer'}`,
    `- Command: ${code(record.command)}`,
    `- Memory Studio: commit ${code(record.commit.head)}${record.commit.dirty ? ' (the working tree had uncommitted changes)' : ''}`,
    counts
      ? `- Interop suite: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${counts.seconds} s (${code(counts.command)})`
      : '- Interop suite: not run',
    `- Compared with: ${previous ? `${previous.version}, the newest verified release before it` : 'nothing (no earlier verified release)'}`,
    '',
  ];
  if (record.tests.length > 0) lines.push('## Interop tests', '', ...testRows(record), '');
  if (record.capture) {
    lines.push('## Databases of a fresh home', '', ...databaseRows(record, previous), '');
    if (previous?.capture) lines.push(...differenceLines(diffReleases(previous, record), previous));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** electron/core/codex-schema/verified.ts: every verified release, oldest first, with its migrations per DB file. */
export function verifiedModuleText(records) {
  const data = records.map((r) => ({
    version: r.version,
    verifiedOn: r.date,
    receipt: `docs/compat/${r.version}.md`,
    databases: Object.fromEntries(
      Object.entries(r.capture.databases).map(([name, db]) => [
        name,
        db.migrations.map(({ version, description, checksum }) => ({ version, description, checksum })),
      ]),
    ),
  }));
  return [
    '// Generated by scripts/compat.mjs (npm run compat) from docs/compat/*.json: every Codex release whose receipt says',
    '// verified, oldest first, with the sqlx migrations (checksums as hex) a fresh home of it carries per SQLite file.',
    '// Do not edit by hand: a release is added by verifying it.',
    "import type { VerifiedCodexRelease } from './types';",
    '',
    `export const VERIFIED_CODEX_RELEASES: VerifiedCodexRelease[] = ${JSON.stringify(data, null, 2)};`,
    '',
  ].join('\n');
}
