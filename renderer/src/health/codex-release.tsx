// Which Codex release wrote the home: its DBs' migrations against the releases Memory Studio verified (docs/compat/).
import type { CodexRelease, DbMigrations } from '../../../shared/health';
import { releaseRangeLabel } from '../../../shared/release-range';
import { formatBytes } from '../lib/format';

function migrationText(m: DbMigrations, release: CodexRelease): string {
  if (m.problem !== null) return `${m.file}: its migration records could not be read (${m.problem}).`;
  if (m.latest === null) return `${m.file}: no migration records (Codex did not create it, or it is damaged).`;
  if (m.unknown.length > 0) {
    const list = m.unknown.map((u) => `${u.version}${u.description ? ` (${u.description})` : ''}`).join(', ');
    return `${m.file} has migration${m.unknown.length === 1 ? '' : 's'} ${list}, which no verified Codex has: a newer Codex migrated it.`;
  }
  if (m.matches.length > 0)
    return `${m.file}: ${m.applied} migrations, as Codex ${releaseRangeLabel(m.matches, release.verified)} leaves it.`;
  if (m.knownLatest !== null && m.latest < m.knownLatest)
    return `${m.file} stops at migration ${m.latest} of ${m.knownLatest}: an older Codex wrote it; Codex ${release.reference} migrates it at its next start.`;
  return `${m.file}: ${m.applied} migrations, which no single verified release has together.`;
}

export function CodexReleaseCard({ release }: { release: CodexRelease }) {
  return (
    <section className="card" aria-labelledby="health-release" data-testid="health-release" data-status={release.status}>
      <h2 id="health-release">Codex release</h2>
      <p className="card-sub" data-testid="release-summary">
        {release.summary}
      </p>
      {release.warning ? (
        <p className="notice notice-warn" data-testid="release-warning">
          {release.warning}
        </p>
      ) : null}
      <p className="muted small" data-testid="release-verified">
        Memory Studio is checked against Codex {release.reference}; verified releases, each with a receipt in docs/compat/:{' '}
        {releaseRangeLabel(release.verified, release.verified) || 'none'}.
      </p>
      <ul className="plain-list small">
        {release.migrations.map((m) => (
          <li key={m.file} data-testid="db-migrations" data-db={m.db ?? undefined} data-file={m.file}>
            {migrationText(m, release)}
            {m.failed.length > 0 ? <span className="text-warn"> Failed migrations recorded: {m.failed.join(', ')}.</span> : null}
          </li>
        ))}
      </ul>
      {release.otherDbFiles.length > 0 ? (
        <div className="health-block" data-testid="other-db-files">
          <h3>Other database files</h3>
          <ul className="plain-list small">
            {release.otherDbFiles.map((f) => (
              <li key={f.path}>
                <code>{f.name}</code> ({formatBytes(f.bytes)}): {f.note}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
