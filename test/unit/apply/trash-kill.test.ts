// A deleted file with a secret, and an Apply SIGKILLed right after a commit step: the next start finishes the Apply,
// then masks the trash, so the deleted file's secret rests nowhere in the data folder.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService } from '../../../electron/core/service/service';
import { everyFile, secretsAtRest } from '../at-rest-bytes';
import { makeTempDir } from '../helpers';
import { ensureCompiled, makeHome, planFor, type TestHome } from './helpers';

const secret = `ghp_${'Kl9Mn8Op7Q'.repeat(3)}rStUvW`;
let home: TestHome;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ensureCompiled();
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 29);
}, 300_000);
afterAll(async () => cleanup());

/** Runs the plan in a child that kills itself after commit step `step`; resolves once it is gone. */
async function killedAfter(planFile: string, step: number): Promise<string> {
  const child = spawn(process.execPath, [join(__dirname, 'kill-at-rename-child.cjs'), planFile, home.dataDir, String(step)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
  expect(signal, out).toBe('SIGKILL');
  return out;
}

/** What the next Memory Studio process does at its start (recovery, then the data folder's care), through a service. */
async function nextStart(): Promise<void> {
  const service = createStudioService({
    home: { codexHome: home.codexHome, source: 'flag' },
    dataDir: home.dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    indexing: false,
    log: () => undefined,
  });
  try {
    await service.call('review.list', {});
  } finally {
    service.dispose();
  }
}

describe('a killed Apply that deleted a file holding a secret', () => {
  for (const step of [0, 1]) {
    it(`is finished at the next start and its trash masked (killed after commit step ${step})`, async () => {
      await writeFile(join(home.root, 'gone.md'), `# Gone\ntoken: ${secret}\n`);
      await writeFile(join(home.root, 'kept.md'), '# Kept\n- base\n');
      const planFile = join(home.dataDir, `plan-${step}.json`);
      await writeFile(
        planFile,
        JSON.stringify(await planFor(home, `p-0kill${step}`, { 'gone.md': null, 'kept.md': '# Kept\n- proposed\n' })),
      );
      await killedAfter(planFile, step);
      // The crash left the deleted file whole in the trash, named by the journal: recovery may still need it.
      expect(await readdir(join(home.dataDir, 'journal'))).toContain(`p-0kill${step}.json`);
      expect(secretsAtRest(home.dataDir, [{ label: 'trash', secret }])).toHaveLength(1);

      await nextStart();
      expect(existsSync(join(home.root, 'gone.md'))).toBe(false);
      expect(await readFile(join(home.root, 'kept.md'), 'utf8')).toBe('# Kept\n- proposed\n');
      expect(await readdir(join(home.dataDir, 'journal'))).not.toContain(`p-0kill${step}.json`);
      const kept = everyFile(join(home.dataDir, 'trash')).filter((f) => f.includes(`p-0kill${step}`) && f.endsWith('gone.md'));
      expect(kept).toHaveLength(1);
      expect(await readFile(kept[0] as string, 'utf8')).toBe('# Gone\ntoken: ghp_****\n');
      expect(secretsAtRest(home.dataDir, [{ label: 'trash', secret }])).toEqual([]);
    });
  }
});
