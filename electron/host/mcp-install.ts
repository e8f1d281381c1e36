// `memory-studio mcp --install codex|claude|cursor`: the agent's own MCP configuration with this server added, as a
// proposal to review and apply like any other (nothing is written by this command).
import { agentNames, type AgentName } from '../../shared/agents';
import { CliUsageError } from './cli-errors';
import { printJson, reportingFailures } from './cli-output';
import { openService } from './cli-service';
import { where } from './cli-where';
import { followUp } from './cli-follow-up';

export function parseAgent(value: string): AgentName {
  if ((agentNames as readonly string[]).includes(value)) return value as AgentName;
  throw new CliUsageError(`--install must be one of ${agentNames.join(', ')}, not "${value}".`);
}

export async function installCommand(agent: AgentName, flags: { home?: string; dataDir?: string; json?: boolean }): Promise<number> {
  return reportingFailures(flags.json, async () => {
    const service = openService({ 'codex-home': flags.home, 'data-dir': flags.dataDir });
    try {
      const proposal = await service.call('agents.connect', { agent });
      if (flags.json) {
        printJson(proposal);
        return 0;
      }
      console.log(`Proposed ${proposal.id}: ${proposal.title}`);
      for (const file of proposal.files) {
        console.log(`  ${where(file)} (${file.change}, +${file.added} -${file.removed})`);
        for (const hunk of file.hunks) for (const line of hunk.lines) console.log(`    ${line}`);
      }
      const apply = followUp(['apply', proposal.id, '--accept', 'all'], { 'codex-home': flags.home, 'data-dir': flags.dataDir });
      console.log(`Nothing is written yet. Review it in Memory Studio's Review view, or: ${apply}`);
      return 0;
    } finally {
      service.dispose();
    }
  });
}
