// Which Codex wrote a home, in words: the verified releases whose migrations match every DB file, the newest
// cli_version, whether each has a receipt (docs/compat/<version>.md), and what is unknown when neither is verified.
import type { CodexRelease, CodexReleaseStatus, DbMigrations, OtherDbFile } from '../../../shared/health';
import { REFERENCE_SCHEMA, VERIFIED_RELEASES } from '../codex-schema';
import { releaseRangeLabel } from '../../../shared/release-range';
import { compareVersions } from './schema-version';

const receiptOf = (version: string): string | null => VERIFIED_RELEASES.find((r) => r.version === version)?.receipt ?? null;

const VERIFIED = VERIFIED_RELEASES.map((r) => r.version);
const rangeOf = (versions: readonly string[]): string => releaseRangeLabel(versions, VERIFIED);

/** Verified releases every readable, migrated file matches, oldest first (none when no file was read). */
function writtenByOf(migrations: readonly DbMigrations[]): string[] {
  const considered = migrations.filter((m) => m.problem === null && m.latest !== null);
  if (considered.length === 0) return [];
  return VERIFIED.filter((v) => considered.every((m) => m.matches.includes(v)));
}

function statusOf(unknown: boolean, writtenBy: readonly string[], newestSeenVerified: boolean | null): CodexReleaseStatus {
  if (unknown) return 'unknown-migrations';
  if (writtenBy.length === 0) return 'unmatched';
  if (newestSeenVerified === false) return 'unverified-release';
  const reference = REFERENCE_SCHEMA.codexVersion;
  return writtenBy.some((v) => compareVersions(v, reference) >= 0) ? 'verified' : 'verified-older';
}

const code = (s: string): string => `\`${s}\``;

function unknownList(migrations: readonly DbMigrations[]): string {
  return migrations
    .filter((m) => m.unknown.length > 0)
    .map((m) => {
      const list = m.unknown.map((u) => `${u.version}${u.description ? ` (${u.description})` : ''}`).join(', ');
      return `${m.file} has migration${m.unknown.length === 1 ? '' : 's'} ${list}`;
    })
    .join('; ');
}

/** Files no single verified release explains, each with what it does match. */
function unmatchedList(migrations: readonly DbMigrations[]): string {
  const parts: string[] = [];
  for (const m of migrations) {
    if (m.problem !== null || m.latest === null) continue;
    if (m.matches.length > 0) parts.push(`${m.file} is as Codex ${rangeOf(m.matches)} leaves it`);
    else if (m.knownLatest !== null && m.latest < m.knownLatest) parts.push(`${m.file} stops at migration ${m.latest} of ${m.knownLatest}`);
    else parts.push(`${m.file} has ${m.applied} migrations no verified release has together`);
  }
  return parts.join('; ');
}

interface Words {
  summary: string;
  warning: string | null;
}

function words(
  status: CodexReleaseStatus,
  label: string,
  migrations: readonly DbMigrations[],
  newestSeen: string | null,
  receipt: string | null,
): Words {
  const reference = REFERENCE_SCHEMA.codexVersion;
  const newestVerified = VERIFIED_RELEASES[VERIFIED_RELEASES.length - 1]?.version ?? reference;
  const ran = newestSeen ? `; codex-cli ${newestSeen} ran the newest session` : '';
  // `cli_version` is whatever a DB row holds: only a plain release number goes into a command to paste.
  const plain = (version: string | null) => (version !== null && /^\d{1,4}\.\d{1,4}\.\d{1,4}$/.test(version) ? version : null);
  const toVerify = (seen: string | null): string => {
    const version = plain(seen);
    return `To verify ${version ? `Codex ${version}` : 'the Codex you run'}, run ${code(`npm run compat -- ${version ?? 'VERSION'}`)} in a Memory Studio checkout${version ? '' : ' (VERSION as `codex --version` prints it)'}.`;
  };
  switch (status) {
    case 'verified':
      return { summary: `Codex ${label} wrote this home (its databases' migrations${ran}): verified (${receipt}).`, warning: null };
    case 'verified-older':
      return {
        summary: `Codex ${label} wrote this home (its databases' migrations${ran}): an older release than the reference ${reference}, verified too (${receipt}). Memory Studio reads it in full.`,
        warning: null,
      };
    case 'unverified-release':
      return {
        summary: `The databases are as Codex ${label} leaves them (verified), and codex-cli ${newestSeen} ran the newest session here.`,
        warning: `Codex ${newestSeen} has no receipt: its migrations are ones Memory Studio knows, but nothing else about it was checked. ${toVerify(newestSeen)}`,
      };
    case 'unknown-migrations': {
      const unverifiedSeen = newestSeen && !VERIFIED_RELEASES.some((r) => r.version === newestSeen) ? newestSeen : null;
      return {
        summary: `A Codex newer than every verified release (the newest is ${newestVerified}) wrote this home${ran}.`,
        warning: `${unknownList(migrations)}, which no verified Codex has. Memory Studio reads only the tables and columns it knows, so whatever those migrations added is not shown (and never changed). ${toVerify(unverifiedSeen)}`,
      };
    }
    case 'unmatched': {
      const files = unmatchedList(migrations);
      return {
        summary: files
          ? `No verified Codex (${rangeOf(VERIFIED)}) leaves these databases as they are${ran}: ${files}.`
          : 'No Codex database here carries migration records yet: Codex has not run in this home, or its files are elsewhere.',
        warning: null,
      };
    }
  }
}

/** The release report of a home: what its migrations and cli_version say, against every verified release. */
export function describeCodexRelease(migrations: DbMigrations[], newestSeen: string | null, otherDbFiles: OtherDbFile[]): CodexRelease {
  const verified = [...VERIFIED];
  const writtenBy = writtenByOf(migrations);
  const newestSeenVerified = newestSeen === null ? null : verified.includes(newestSeen);
  const unknown = migrations.some((m) => m.unknown.length > 0);
  const status = statusOf(unknown, writtenBy, newestSeenVerified);
  const label = writtenBy.length > 0 ? rangeOf(writtenBy) : null;
  const covering = newestSeen && newestSeenVerified && writtenBy.includes(newestSeen) ? newestSeen : writtenBy[writtenBy.length - 1];
  const receipt = status === 'unknown-migrations' || !covering ? null : receiptOf(covering);
  return {
    reference: REFERENCE_SCHEMA.codexVersion,
    verified,
    newestSeen,
    newestSeenVerified,
    migrations,
    writtenBy,
    writtenByLabel: label,
    status,
    receipt,
    ...words(status, label ?? '', migrations, newestSeen, receipt),
    newerThanReference: unknown,
    otherDbFiles,
  };
}
