// The Codex home a proposal was made for, so `apply`, `show` and `rebase` need no --codex-home: the proposal's memory
// files name their root (`<home>/memories` or `<home>/memories_v2`). A flag that names another home is refused.
import { basename, dirname, resolve } from 'node:path';
import type { Proposal } from '../../../../shared/review';
import { ROOT_DIRS } from '../../codex/constants';
import type { HomeChoice } from '../../codex/home-path';
import { StudioFailure } from '../../platform/errors';
import { getProposal } from '../../review/proposals';
import { openStudioDb } from '../../studio-db';

const ROOT_NAMES = new Set<string>([ROOT_DIRS.v1, ROOT_DIRS.v2]);

/**
 * The home of the proposal's memory files (or of the config.toml connecting Codex changes), or null when it has none (a
 * forget proposal changes Codex's DBs only). A promotion's project file is left out: its folder is a repository,
 * whatever it is called; so is Claude Code's or Cursor's configuration.
 */
export function homeOfProposal(proposal: Pick<Proposal, 'files'>): string | null {
  const homes = new Set([
    ...proposal.files.filter((f) => f.target === 'memory' && ROOT_NAMES.has(basename(f.root))).map((f) => dirname(resolve(f.root))),
    // Connecting Codex changes the home's own config.toml.
    ...proposal.files.filter((f) => f.target === 'agent-config' && f.relPath === 'config.toml').map((f) => resolve(f.root)),
  ]);
  const [only] = homes;
  return homes.size === 1 && only !== undefined ? only : null;
}

/**
 * The home to use: the proposal's; a home the person asked for (`asked`) that is another one is refused; without
 * either, the usual choice (`usual`: CODEX_HOME, then ~/.codex).
 */
export function homeForProposal(proposal: Pick<Proposal, 'id' | 'files'>, asked: HomeChoice | null, usual: () => HomeChoice): HomeChoice {
  const own = homeOfProposal(proposal);
  if (own && asked && asked.codexHome !== own) {
    throw new StudioFailure(
      'Invalid',
      `Proposal ${proposal.id} was made for the Codex home ${own}, not ${asked.codexHome}; nothing was done.`,
      {
        hint: `Leave out --codex-home (the proposal knows its home), or pass --codex-home ${own}.`,
      },
    );
  }
  if (own) return { codexHome: own, source: 'flag' };
  return asked ?? usual();
}

/** One proposal as stored in the data folder's Studio DB (NotFound when there is none of that id). */
export function readProposal(dataDir: string, id: string): Proposal {
  const db = openStudioDb(dataDir);
  try {
    return getProposal(db, id);
  } finally {
    db.close();
  }
}
