// "Forget this session" through Memory Studio, checked with real Codex: the forgotten session is never extracted again.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from './support/codex';
import { FakeProvider, requestText } from './support/fake-provider';
import { consolidatedHome, studioReports } from './support/scenario';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

interface ProposalJson {
  id: string;
  dbChanges: Array<{ db: string; description: string }>;
}

it('a session forgotten through Memory Studio is never extracted again by real Codex, while another one is', async () => {
  const { home, extracted, execThread } = await consolidatedHome(provider, 'default');
  const dataDir = join(home.base, 'studio-data');
  const cli = (args: string[]) => studio<ProposalJson>([...args, '--codex-home', home.codexHome, '--data-dir', dataDir]);
  try {
    const forget = await cli(['forget', extracted]);
    expect(forget.code, forget.stderr).toBe(0);
    expect(forget.json.dbChanges.length).toBeGreaterThan(0);
    const applied = await cli(['apply', forget.json.id, '--accept', 'all']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const outputs = () =>
      home.read(home.memoryDbPath('v2'), (db) => db.prepare('SELECT thread_id FROM stage1_outputs').all() as Array<{ thread_id: string }>);
    expect(outputs().map((r) => r.thread_id)).not.toContain(extracted);

    // Both threads newly active and idle: the forgotten one would be extracted again if Codex did not honour the forget.
    home.makeEligible(extracted, 4000);
    home.makeEligible(execThread, 3800);
    const predicted = (await studioReports(home)).inspect.health.versions.find((v) => v.version === 'v2')?.phase1;
    expect(predicted, 'Memory Studio predicts what Codex then does').toMatchObject({ eligible: 1, threadIds: [execThread] });
    const phase1Before = provider.of('phase1').length;
    const result = await home.exec('after the forget', {
      holdUntil: async () => {
        await waitFor('phase 1 to extract the other session', () => (outputs().some((r) => r.thread_id === execThread) ? true : undefined));
      },
    });
    expect(result.code).toBe(0);
    const phase1 = provider.of('phase1').slice(phase1Before);
    expect(phase1, 'phase 1 ran once, for the session that was not forgotten').toHaveLength(1);
    expect(outputs().map((r) => r.thread_id)).toEqual([execThread]);
    expect(phase1.map(requestText).join('\n')).not.toContain(extracted);
    const mode = home.read(
      home.sqlitePath('state_5.sqlite'),
      (db) => (db.prepare('SELECT memory_mode FROM threads WHERE id = ?').get(extracted) as { memory_mode: string }).memory_mode,
    );
    expect(mode).toBe('disabled');
  } finally {
    await home.remove();
  }
});
