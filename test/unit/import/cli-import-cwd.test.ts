// `memory-studio import` end to end as a person runs it (bin.cjs, the built CLI) against a real temporary Claude home
// and a real generated Codex home: a first plan says "new", a project whose folder moved or is unknown names the
// `--cwd` to paste, `--cwd KEY=DIR` imports it, and the plan's last line says what `--apply` would do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { APP_KEY, makeClaudeHome, put, realDir } from './fixtures';

const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));
const MOVED = '-old-place-moved';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setUp() {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const f = await makeClaudeHome(temp.dir);
  // A project whose newest session records a folder that is not on this machine (moved, or another machine's).
  const moved = join(f.claudeHome, 'projects', MOVED);
  await put(join(moved, 'memory', 'MEMORY.md'), '# Moved\n\n- [Deploy](deploy.md)\n');
  await put(join(moved, 'memory', 'deploy.md'), '---\nname: Deploy\ntype: project\n---\n\nDeploy on Tuesdays.\n');
  await put(join(moved, 'session.jsonl'), `${JSON.stringify({ cwd: join(f.base, 'gone', 'moved') })}\n`);
  const home = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v1', seed: 3, git: false });
  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, [bin, 'import', '--from', 'claude', '--source-home', f.claudeHome, ...args], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, HOME: f.base, CODEX_HOME: home.codexHome, MEMORY_STUDIO_DATA: join(temp.dir, 'data') },
    });
    return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
  };
  return { f, home, run };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

describe.skipIf(!built)('memory-studio import --cwd, first plans and the --apply line', () => {
  it('a first plan labels new files "new" and its last line says what --apply would do', async () => {
    const { run } = await setUp();
    const plan = run([`--project=${APP_KEY}`, '--plan']);
    expect(plan.status, plan.output).toBe(0);
    expect(plan.stdout).toMatch(new RegExp(`^${APP_KEY}  cwd=\\S+  importable  \\[new\\]$`, 'm'));
    expect(plan.stdout).toMatch(/^ {2}user_role\.md {2}topic {2}\d+ B {2}importable {2}\[new\]$/m);
    expect(plan.stdout).not.toContain('[unchanged]');
    expect(lastLine(plan.stdout)).toBe(
      '--apply would propose 6 new files and 0 changed ones into v1 and v2 (15 file writes in all), accept and apply them; ' +
        'secrets: 3 unresolved, so --apply needs --redact-secrets (replace each) or --skip-secret-files (leave those files out).',
    );
    const redacted = run([`--project=${APP_KEY}`, '--plan', '--redact-secrets']);
    expect(lastLine(redacted.stdout)).toMatch(/; secrets: 3 redacted, 0 files with one left out\.$/);
  });

  it('a project without a folder here names the --cwd to paste; the plan says its files are new and wait for it', async () => {
    const { run } = await setUp();
    const plan = run([`--project=${MOVED},-home-me-nocwd`, '--plan']);
    expect(plan.status, plan.output).toBe(0);
    expect(plan.stdout).toContain(`To import it, give the folder it is in now: --cwd='${MOVED}=/path/to/project'`);
    expect(plan.stdout).toContain(`--cwd='-home-me-nocwd=/path/to/project'`);
    expect(plan.stdout).toMatch(/^ {2}deploy\.md {2}topic {2}\d+ B {2}importable {2}\[new, waits for --cwd\]$/m);
    expect(plan.stdout).not.toContain('[unchanged]');
    expect(lastLine(plan.stdout)).toBe(
      'Nothing to import yet: 2 projects (3 files) wait for --cwd (see above); --apply now would change nothing.',
    );
    // --apply says the same, not that the targets already hold everything.
    const applied = run([`--project=${MOVED}`, '--apply', '--skip-secret-files']);
    expect(applied.status, applied.output).toBe(0);
    expect(applied.stdout).toBe(
      `Nothing to import yet: no project folder (cwd) is known here for ${MOVED}; give each its folder, then import again.\n` +
        `  ${MOVED}: --cwd='${MOVED}=/path/to/project'\n`,
    );
  });

  it('--cwd KEY=DIR imports a moved project into that folder’s scope; the next plan finds it unchanged', async () => {
    const { f, home, run } = await setUp();
    const now = await realDir(f.base, 'src', 'moved-here');
    const cwd = `--cwd=${MOVED}=${now}`;
    const plan = run([`--project=${MOVED}`, cwd, '--plan']);
    expect(plan.status, plan.output).toBe(0);
    expect(plan.stdout).toContain(`${MOVED}  cwd=${now}  importable  [new]`);
    // The command to paste carries the project and its folder in the '=' form a key starting with '-' needs.
    expect(plan.stdout).toMatch(new RegExp(`^Import it: .* import --from claude --apply .*--project=${MOVED} .*--cwd=${MOVED}=`, 'm'));
    expect(lastLine(plan.stdout)).toMatch(
      /^--apply would propose 2 new files and 0 changed ones into v1 and v2 .*; secrets: none found\.$/,
    );
    const applied = run([`--project=${MOVED}`, cwd, '--apply', '--skip-secret-files']);
    expect(applied.status, applied.output).toBe(0);
    const scope = join(home.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', MOVED, 'scope.json');
    expect(JSON.parse(await readFile(scope, 'utf8'))).toEqual({ cwd: now });
    const again = run([`--project=${MOVED}`, cwd, '--plan']);
    expect(again.stdout).toContain(`${MOVED}  cwd=${now}  importable  [unchanged]`);
    expect(lastLine(again.stdout)).toBe('Nothing to import: --apply would change nothing.');
    await put(
      join(f.claudeHome, 'projects', MOVED, 'memory', 'deploy.md'),
      '---\nname: Deploy\ntype: project\n---\n\nDeploy on Wednesdays.\n',
    );
    const changed = run([`--project=${MOVED}`, cwd, '--plan']);
    expect(changed.stdout).toMatch(/^ {2}deploy\.md {2}topic {2}\d+ B {2}importable {2}\[changed\]$/m);
    expect(changed.stdout).toContain(`${MOVED}  cwd=${now}  importable  [changed]`);
    expect(lastLine(changed.stdout)).toMatch(
      /^--apply would propose 0 new files and 1 changed one into v1 and v2 \(2 file writes in all\)/,
    );
  });

  it('a malformed or missing --cwd folder is refused in a line that names the fix; an unknown key is noted', async () => {
    const { f, run } = await setUp();
    const malformed = run(['--cwd', 'no-equals-sign', '--plan']);
    expect(malformed.status).toBe(2);
    expect(malformed.output).toContain(`--cwd "no-equals-sign" needs PROJECT_KEY=DIR`);
    const missing = run([`--cwd=${MOVED}=${join(f.base, 'not-there')}`, '--plan']);
    expect(missing.status).toBe(1);
    expect(missing.output).toContain(`${join(f.base, 'not-there')} does not exist.`);
    expect(missing.output).toContain(`--cwd='${MOVED}=/path/to/project'`);
    const unknown = run([`--project=${MOVED}`, `--cwd=-no-such-key=${f.base}`, '--plan']);
    expect(unknown.status, unknown.output).toBe(0);
    expect(unknown.stdout).toContain('note: --cwd names -no-such-key, which is not a project of this plan');
  });
  it('a partial --apply names the projects it left waiting; --cwd through a symlink records the real folder', async () => {
    const { f, home, run } = await setUp();
    const both = run([`--project=${APP_KEY},${MOVED}`, '--apply', '--skip-secret-files']);
    expect(both.status, both.output).toBe(0);
    expect(both.stdout).toMatch(/^Applied import p-/m);
    expect(both.stdout).toContain(
      `Not imported: no project folder (cwd) is known here for this project:\n  ${MOVED}: --cwd='${MOVED}=/path/to/project'`,
    );
    const json = run([`--project=${APP_KEY},${MOVED}`, '--apply', '--skip-secret-files', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, waitingForCwd: [MOVED] });
    // A folder reached through a symlink is recorded as sessions name it: by its real path.
    const now = await realDir(f.base, 'src', 'real-place');
    const link = join(f.base, 'linked-place');
    await symlink(now, link);
    const linked = run([`--project=${MOVED}`, `--cwd=${MOVED}=${link}`, '--apply', '--skip-secret-files']);
    expect(linked.status, linked.output).toBe(0);
    const scope = join(home.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', MOVED, 'scope.json');
    expect(JSON.parse(await readFile(scope, 'utf8'))).toEqual({ cwd: now });
    // A file is not a folder: refused by name, nothing imported.
    const file = join(f.base, 'a-file');
    await writeFile(file, 'not a folder\n');
    const refused = run([`--project=${MOVED}`, `--cwd=${MOVED}=${file}`, '--apply', '--skip-secret-files']);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain(`${file} is not a folder.`);
  });
});
