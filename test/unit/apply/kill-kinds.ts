// Every kind of proposal the kill tests stop mid-Apply, made the way the app makes it: edit, note, redact, forget,
// consolidation, import, revert, promote (a project's AGENTS.md), a doctor fix, an agent's memory_propose and
// Connect an agent (Codex's config.toml), each on its own real home.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Finding } from '../../../shared/doctor';
import type { Proposal } from '../../../shared/review';
import { scanSecrets } from '../../../electron/core/lint/secrets';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { openStudioDb } from '../../../electron/core/studio-db';
import { generateHome } from '../../fixtures';
import { createDoctorHome } from '../../fixtures/doctor-home';
import { makeClaudeHome, SECRETS, type ClaudeFixture } from '../import/fixtures';

export interface KindHome {
  codexHome: string;
  dataDir: string;
  service: StudioService;
  /** The v1 memory root. */
  root: string;
  /** Folders Apply may write temp files in: the memory roots, and the projects of a promotion. */
  folders: string[];
  /** Codex's memory DBs (the lease rows). */
  dbPaths: string[];
  claude?: ClaudeFixture;
  dispose(): void;
}

export interface Kind {
  name: string;
  home: 'generated' | 'doctor';
  /** This round's proposal, every change hunk accepted. */
  make(h: KindHome, round: number): Promise<Proposal>;
  /** What else an applied proposal of this kind did (forget: Codex's rows). */
  checkApplied?(h: KindHome, proposal: Proposal): string[];
  /** How many secrets its history entry says the change removed (a redaction's; none for the others). */
  secretsRemoved?: number;
}

function openService(codexHome: string, dataDir: string, env?: NodeJS.ProcessEnv): StudioService {
  return createStudioService({
    home: { codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    // The CLI's way: a consolidation run hands Codex's lease back once its proposal is made.
    holdConsolidationLease: false,
    // How the app starts its MCP server, for Connect an agent.
    mcpLauncher: { command: process.execPath, args: [join(__dirname, '..', '..', '..', 'electron', 'host', 'bin.cjs')] },
    ...(env ? { env } : {}),
  });
}

export async function makeKindHome(dir: string, kind: Kind): Promise<KindHome> {
  const dataDir = join(dir, 'data');
  if (kind.home === 'doctor') {
    const doctor = await createDoctorHome(dir);
    const service = openService(doctor.codexHome, dataDir);
    return {
      codexHome: doctor.codexHome,
      dataDir,
      service,
      root: doctor.root,
      folders: [doctor.root, join(doctor.codexHome, 'memories_v2'), doctor.pipeline, doctor.webapp],
      dbPaths: [join(doctor.codexHome, 'memories_1.sqlite'), join(doctor.codexHome, 'memories_v2_1.sqlite')],
      dispose: () => service.dispose(),
    };
  }
  const manifest = await generateHome({ dir: join(dir, 'home'), scale: 'small', version: 'v1', seed: 61, git: false, now: new Date() });
  const claude = await makeClaudeHome(dir);
  const service = openService(manifest.codexHome, dataDir, claude.env);
  return {
    codexHome: manifest.codexHome,
    dataDir,
    service,
    root: join(manifest.codexHome, 'memories'),
    // The Codex home itself: Connect an agent writes its config.toml there.
    folders: [join(manifest.codexHome, 'memories'), join(manifest.codexHome, 'memories_v2'), manifest.codexHome],
    dbPaths: [join(manifest.codexHome, 'memories_1.sqlite'), join(manifest.codexHome, 'memories_v2_1.sqlite')],
    claude,
    dispose: () => service.dispose(),
  };
}

export async function acceptAll(h: KindHome, proposal: Proposal): Promise<Proposal> {
  return h.service.call('review.decide', {
    id: proposal.id,
    files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((x) => [x.id, 'accept' as const])) })),
  });
}

function query<T>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Enabled threads with a stage-1 output, in a fixed order: each forget round takes the next one. */
function forgettable(h: KindHome): string[] {
  const enabled = new Set(
    query<{ id: string }>(join(h.codexHome, 'state_5.sqlite'), "SELECT id FROM threads WHERE memory_mode = 'enabled'").map((r) => r.id),
  );
  return query<{ thread_id: string }>(h.dbPaths[0] as string, 'SELECT thread_id FROM stage1_outputs ORDER BY thread_id')
    .map((r) => r.thread_id)
    .filter((t) => enabled.has(t));
}

const forgotten = new Map<string, string>();

async function duplicateFinding(h: KindHome): Promise<Finding> {
  const report = await h.service.call('doctor.run', { version: 'v1' });
  const finding = report.findings.find((f) => f.kind === 'duplicate' && f.version === 'v1' && f.file === 'MEMORY.md');
  if (!finding) throw new Error('the doctor home has no duplicate finding');
  return finding;
}

export const KINDS: Kind[] = [
  {
    name: 'edit',
    home: 'generated',
    async make(h, round) {
      const current = await readFile(join(h.root, 'memory_summary.md'), 'utf8');
      return acceptAll(
        h,
        await h.service.call('review.propose', { version: 'v1', path: 'memory_summary.md', content: `${current}- kill round ${round}\n` }),
      );
    },
  },
  {
    name: 'note',
    home: 'generated',
    make: async (h, round) =>
      acceptAll(h, await h.service.call('review.note', { version: 'v1', slug: `kill-round-${round}`, text: `Remember round ${round}.` })),
  },
  {
    name: 'redact',
    home: 'generated',
    secretsRemoved: 1,
    async make(h, round) {
      // A note holding a token, as a person's hand edit would leave it; the redaction proposal replaces it.
      const path = `extensions/ad_hoc/notes/2026-01-0${(round % 9) + 1}T00-00-00-token-${round}.md`;
      const text = `# Deploy\n\nThe CI token is ${SECRETS.github} for round ${round}.\n`;
      await mkdir(join(h.root, 'extensions/ad_hoc/notes'), { recursive: true });
      await writeFile(join(h.root, path), text);
      const secrets = scanSecrets(text).map((f) => ({ rule: f.rule, line: f.line }));
      return acceptAll(h, await h.service.call('review.redact', { version: 'v1', path, secrets }));
    },
  },
  {
    name: 'forget',
    home: 'generated',
    async make(h, round) {
      const threadId = forgettable(h)[0];
      if (!threadId) throw new Error(`no thread left to forget in round ${round}`);
      const proposal = await h.service.call('review.forget', { threadId });
      forgotten.set(proposal.id, threadId);
      return proposal;
    },
    checkApplied(h, proposal) {
      const threadId = forgotten.get(proposal.id) as string;
      const found: string[] = [];
      if (query(h.dbPaths[0] as string, 'SELECT 1 FROM stage1_outputs WHERE thread_id = ?', threadId).length > 0)
        found.push(`the stage-1 output of ${threadId} is still there`);
      const mode = query<{ memory_mode: string }>(
        join(h.codexHome, 'state_5.sqlite'),
        'SELECT memory_mode FROM threads WHERE id = ?',
        threadId,
      );
      if (mode[0]?.memory_mode !== 'disabled') found.push(`thread ${threadId} is ${mode[0]?.memory_mode ?? 'gone'}, not disabled`);
      return found;
    },
  },
  {
    name: 'consolidation',
    home: 'generated',
    async make(h, round) {
      const started = await h.service.call('consolidate.start', { version: 'v1', engine: 'builtin' });
      const done = await h.service.consolidation().settled(started.id);
      if (!done.proposalId) throw new Error(`round ${round}: the consolidation run ended ${done.state}: ${done.message}`);
      return acceptAll(h, await h.service.call('review.get', { id: done.proposalId }));
    },
  },
  {
    name: 'import',
    home: 'generated',
    async make(h, round) {
      const claude = h.claude as ClaudeFixture;
      const { proposeImport } = await import('../../../electron/core/import');
      const studio = openStudioDb(h.dataDir);
      try {
        const home = await h.service.call('home.get', {});
        const input = { from: 'claude' as const, sourceHome: claude.claudeHome, choices: { secretDefault: 'redact' as const } };
        const outcome = await proposeImport(studio, home, input, { env: claude.env, managedSettingsDir: claude.managedDir });
        if (!outcome.proposal) throw new Error(`round ${round}: nothing to import (${outcome.message})`);
        return acceptAll(h, outcome.proposal);
      } finally {
        studio.close();
      }
    },
  },
  {
    name: 'revert',
    home: 'generated',
    async make(h, round) {
      const current = await readFile(join(h.root, 'memory_summary.md'), 'utf8');
      const edit = await acceptAll(
        h,
        await h.service.call('review.propose', { version: 'v1', path: 'memory_summary.md', content: `${current}- to revert ${round}\n` }),
      );
      const applied = await h.service.call('review.apply', { id: edit.id });
      return acceptAll(h, await h.service.call('history.revert', { entryId: applied.entry.id }));
    },
  },
  {
    name: 'promote',
    home: 'doctor',
    async make(h) {
      const report = await h.service.call('doctor.run', { version: 'v1' });
      const entry = report.entries.find((e) => e.title === 'data-pipeline ingestion');
      if (!entry) throw new Error('the doctor home has no data-pipeline ingestion block');
      return acceptAll(h, await h.service.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', entryId: entry.id }));
    },
  },
  {
    name: 'agent',
    home: 'generated',
    make: async (h, round) =>
      acceptAll(
        h,
        await h.service.call('review.agentPropose', {
          version: 'v1',
          title: `Kill round ${round}`,
          text: `Staging deploys in round ${round} need the VPN.`,
          project: '/home/dana/src/infra',
          client: { name: 'kill-agent', version: '1.0.0' },
          maxPerHour: 10_000,
        }),
      ),
  },
  {
    name: 'connect',
    home: 'generated',
    // Each round's revert takes the entry out of config.toml again, so the next round connects anew.
    make: async (h) => acceptAll(h, await h.service.call('agents.connect', { agent: 'codex' })),
  },
  {
    name: 'doctor-fix',
    home: 'doctor',
    make: async (h) =>
      acceptAll(h, await h.service.call('doctor.fix', { version: 'v1', fixId: `${(await duplicateFinding(h)).id}.merge` })),
  },
];
