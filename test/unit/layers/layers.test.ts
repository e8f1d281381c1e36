// The layering check (scripts/check-layers.mjs) run as `npm test` runs it: it passes on the real core, and fails on
// an upward import, static or `import()`, while `import type` (erased from the output) does not count.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '..', '..', '..');
const script = join(repo, 'scripts', 'check-layers.mjs');
const dirs: string[] = [];

function check(core?: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [script, ...(core ? ['--core', core] : [])], { encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ms-layers-'));
  dirs.push(dir);
  return dir;
}

function write(core: string, rel: string, text: string): void {
  mkdirSync(join(core, rel, '..'), { recursive: true });
  writeFileSync(join(core, rel), text);
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the layering check', () => {
  it('passes on the real electron/core', () => {
    const { status, out } = check();
    expect(out).toMatch(/^Layers hold: \d+ areas/);
    expect(status).toBe(0);
  });

  it('fails on a deliberately added upward import in a copy of the real core', () => {
    const core = join(tempDir(), 'core');
    cpSync(join(repo, 'electron', 'core'), core, { recursive: true });
    write(
      core,
      'platform/reach-up.ts',
      "import { createStudioService } from '../service/service';\nexport const s = createStudioService;\n",
    );
    const { status, out } = check(core);
    expect(status).toBe(1);
    expect(out).toContain("electron/core/platform/reach-up.ts: the platform area imports '../service/service' of service, a higher layer.");
  });

  it('fails on a host that reaches past the service into a core area, and lets it import types', () => {
    const electron = join(tempDir(), 'electron');
    for (const part of ['core', 'host', 'main']) cpSync(join(repo, 'electron', part), join(electron, part), { recursive: true });
    expect(check(join(electron, 'core')).status).toBe(0);
    write(electron, 'host/reach-in.ts', "import { IndexManager } from '../core/index-store/manager';\nexport const m = IndexManager;\n");
    write(electron, 'main/reach-in.ts', "export const load = () => import('../core/apply/index.js');\n");
    write(
      electron,
      'host/types-only.ts',
      "import type { IndexedHome } from '../core/index-store/inspect';\nexport type H = IndexedHome;\n",
    );
    const { status, out } = check(join(electron, 'core'));
    expect(status).toBe(1);
    expect(out).toContain("electron/host/reach-in.ts: a host imports '../core/index-store/manager' of core's index-store area");
    expect(out).toContain("electron/main/reach-in.ts: a host imports '../core/apply/index.js' of core's apply area");
    expect(out).not.toContain('types-only');
  });

  it('counts import() and re-exports, and not type-only imports', () => {
    const core = join(tempDir(), 'core');
    write(core, 'service/api.ts', 'export interface Api { n: number }\nexport const api = 1;\n');
    write(
      core,
      'platform/types-only.ts',
      [
        "import type { Api } from '../service/api';",
        "import { type Api as Same } from '../service/api';",
        "export type { Api as Again } from '../service/api';",
        'export type Both = Api | Same;',
      ].join('\n'),
    );
    write(core, 'platform/lazy.ts', "export const load = async () => (await import('../service/api.js')).api;\n");
    write(core, 'codex/reexport.ts', "export { api } from '../service/api';\n");
    const { status, out } = check(core);
    expect(status).toBe(1);
    expect(out).toContain("platform/lazy.ts: the platform area imports '../service/api.js' of service");
    expect(out).toContain("codex/reexport.ts: the codex area imports '../service/api' of service");
    expect(out).not.toContain('types-only.ts');
  });

  it('names an area the order does not know, and an import() it cannot follow', () => {
    const core = join(tempDir(), 'core');
    write(core, 'gadgets/a.ts', 'export const a = 1;\n');
    write(core, 'platform/dyn.ts', "export const load = (name: string) => import('../' + name);\n");
    const { status, out } = check(core);
    expect(status).toBe(1);
    expect(out).toContain('electron/core/gadgets/: an area the layering does not name');
    expect(out).toContain('electron/core/platform/dyn.ts: an import() or require() of a computed name');
  });
});
