// Homes for the fault probe: a generated Codex home with a pending proposal, a session to forget and a Claude source.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createStudioService } from '../../../electron/core/service/service';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { generateHome } from '../../fixtures';

export interface ProbeHome {
  codexHome: string;
  dataDir: string;
  root: string;
  memoryDb: string;
  proposalId: string;
  threadId: string;
  claudeHome: string;
}

/** A small Claude Code home with one project whose session names an existing folder (so an import has work to do). */
export function makeClaudeSource(base: string): string {
  const claudeHome = join(base, 'claude');
  const cwd = join(base, 'work', 'app');
  mkdirSync(cwd, { recursive: true });
  const project = join(claudeHome, 'projects', '-probe-app');
  mkdirSync(join(project, 'memory'), { recursive: true });
  writeFileSync(join(project, 'memory', 'MEMORY.md'), '# Memory Index\n\n- [Style](style.md) — house style\n');
  writeFileSync(join(project, 'memory', 'style.md'), '---\nname: Style\ntype: feedback\n---\n\nUse named exports.\n');
  writeFileSync(join(project, 'session.jsonl'), `${JSON.stringify({ type: 'user', cwd: realpathSync(cwd) })}\n`);
  return claudeHome;
}

/** A fresh home under `base` with a pending proposal on MEMORY.md, made through the service before anything breaks. */
export async function makeProbeHome(base: string): Promise<ProbeHome> {
  const manifest = await generateHome({ dir: join(base, 'home'), scale: 'small', version: 'v1', seed: 30, git: false });
  const codexHome = manifest.codexHome;
  const dataDir = join(base, 'data');
  const root = join(codexHome, 'memories');
  const service = createStudioService({
    home: { codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'probe',
    watch: false,
    indexing: false,
    log: () => undefined,
  });
  let proposalId: string;
  try {
    const { content } = await service.call('workspace.read', { version: 'v1', path: 'MEMORY.md' });
    proposalId = (await service.call('review.propose', { version: 'v1', path: 'MEMORY.md', content: `${content}\n- Probe line.\n` })).id;
  } finally {
    service.dispose();
  }
  const state = openSqlite(join(codexHome, 'state_5.sqlite'), { readonly: true });
  const threadId = (state.prepare('SELECT id FROM threads ORDER BY id LIMIT 1').get() as { id: string }).id;
  state.close();
  return {
    codexHome,
    dataDir,
    root,
    memoryDb: join(codexHome, 'memories_1.sqlite'),
    proposalId,
    threadId,
    claudeHome: makeClaudeSource(base),
  };
}
