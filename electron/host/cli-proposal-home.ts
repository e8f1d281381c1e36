// The Codex home a proposal was made for (core/service/use-cases/proposal-home.ts), with the home the person named
// resolved in the command's folder.
import type { Proposal } from '../../shared/review';
import type { HomeChoice } from '../core/service/use-cases/locate';
import { homeForProposal as forProposal } from '../core/service/use-cases/proposal-home';
import { cliCodexHome } from './cli-io';

/** The home to use: the proposal's; a --codex-home naming another one is refused; without either, the usual choice. */
export function homeForProposal(proposal: Pick<Proposal, 'id' | 'files'>, flag: string | undefined): HomeChoice {
  return forProposal(proposal, flag === undefined ? null : cliCodexHome(flag), () => cliCodexHome(undefined));
}
