// Which Codex release wrote the home: the migrations of its DBs against the release Memory Studio was checked with.
import type { CodexRelease, DbMigrations } from '../../../shared/health';
import { baseName, formatBytes } from '../lib/format';

function migrationText(m: DbMigrations, reference: string): string {
  if (m.latest === null) return `${baseName(m.path)}: no migration records (Codex did not create it, or it is damaged).`;
  if (m.unknown.length > 0) {
    const range = m.unknown.length === 1 ? `migration ${m.unknown[0]}` : `migrations ${m.unknown[0]}–${m.unknown[m.unknown.length - 1]}`;
    return `${baseName(m.path)} has ${range}, which Codex ${reference} does not have: a newer Codex migrated it. Memory Studio reads the tables and columns it knows.`;
  }
  if (m.knownLatest !== null && m.latest < m.knownLatest)
    return `${baseName(m.path)} stops at migration ${m.latest} of ${m.knownLatest}: an older Codex wrote it; Codex ${reference} migrates it at its next start.`;
  return `${baseName(m.path)}: ${m.applied} migrations, as Codex ${reference} leaves it.`;
}

export function CodexReleaseCard({ release }: { release: CodexRelease }) {
  return (
    <section className="card" aria-labelledby="health-release" data-testid="health-release">
      <h2 id="health-release">Codex release</h2>
      <p className="card-sub muted">
        Memory Studio was checked against Codex {release.reference}.{' '}
        {release.newestSeen
          ? `The newest session here was recorded by codex-cli ${release.newestSeen}.`
          : 'No session here records its Codex version.'}
      </p>
      {release.newerThanReference ? (
        <p className="notice notice-warn" data-testid="newer-codex">
          A newer Codex than {release.reference} wrote this home. What Memory Studio knows is read as usual; anything newer is left out,
          never changed.
        </p>
      ) : null}
      <ul className="plain-list small">
        {release.migrations.map((m) => (
          <li key={m.db} data-testid="db-migrations" data-db={m.db}>
            {migrationText(m, release.reference)}
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
