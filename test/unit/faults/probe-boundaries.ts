// The fault probe at the boundaries: the data folder, model names, names with control characters or `.GIT`, paths a
// page sends over serve's HTTP, and import walks far past a memory folder's size.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, cli, errorOf, generalProblems, jsonOf, treeDigest, type CliRun } from './probe-kit';
import { makeProbeHome, type ProbeHome } from './probe-homes';
import type { ProbeTry } from './probe-disk';

/** A refusal: the error kind wanted, the exit code wanted, words in the message, nothing changed in the memory folder. */
function refused(run: CliRun, before: string, root: string, want: { kind: string; status?: number; words?: RegExp }): string[] {
  const problems = generalProblems(run);
  const error = errorOf(jsonOf(run));
  if (!error) problems.push(`not refused (exit ${run.status})`);
  else {
    if (error.kind !== want.kind) problems.push(`kind ${error.kind}, not ${want.kind}`);
    if (want.words && !want.words.test(error.message)) problems.push(`message: ${error.message}`);
    if ([...error.message].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)))
      problems.push('the message carries a raw control character');
  }
  if (run.status !== (want.status ?? 1)) problems.push(`exit ${run.status}, not ${want.status ?? 1}`);
  if (treeDigest(root) !== before) problems.push('the memory folder changed');
  return problems;
}

function dataDirTries(h: ProbeHome): ProbeTry[] {
  const inside = join(h.root, 'studio-data');
  const note = join(h.dataDir, '..', 'note.md');
  writeFileSync(note, 'A line.\n');
  const tries: ProbeTry[] = [];
  for (const args of [['inspect'], ['propose', '--file', 'MEMORY.md', '--content-file', note], ['consolidate'], ['history']]) {
    const before = treeDigest(h.root);
    const run = cli([...args, '--codex-home', h.codexHome, '--data-dir', inside, '--json']);
    const problems = refused(run, before, h.root, { kind: 'Invalid', words: /inside the Codex memory folder/ });
    if (existsSync(inside)) problems.push('the data folder was created inside the memory root');
    tries.push({ name: `data folder inside memories/: ${args[0]}`, problems });
  }
  return tries;
}

function modelTries(h: ProbeHome): ProbeTry[] {
  const bad = ['--dangerously-bypass-approvals-and-sandbox', '-c', 'gpt 5', 'gpt-5;touch /tmp/x', 'a\u0007b'];
  return bad.map((model) => {
    const before = treeDigest(h.root);
    const run = cli([
      'consolidate',
      '--engine',
      'codex',
      `--model=${model}`,
      '--codex-home',
      h.codexHome,
      '--data-dir',
      h.dataDir,
      '--json',
    ]);
    return { name: `model name ${JSON.stringify(model)}`, problems: refused(run, before, h.root, { kind: 'Invalid', words: /model/ }) };
  });
}

function nameTries(h: ProbeHome): ProbeTry[] {
  const content = join(h.dataDir, '..', 'content.md');
  writeFileSync(content, '# Hello\n');
  const names = [
    'a\u0001.md',
    'notes/a\u001b[31mred.md',
    'a\nb.md',
    'a\u007f.md',
    'a\u0085.md',
    'a\u009f.md',
    '.GIT/config',
    '.Git./hooks.md',
    '.g\u200cit/x.md',
    'skills/.gIt/x.md',
    '.CODEX-BASELINE/x.md',
  ];
  return names.map((file) => {
    const before = treeDigest(h.root);
    const args = ['propose', '--version', 'v1', '--file', file, '--content-file', content];
    const run = cli([...args, '--codex-home', h.codexHome, '--data-dir', h.dataDir, '--json']);
    return {
      name: `propose --file ${JSON.stringify(file)}`,
      problems: refused(run, before, h.root, { kind: 'Invalid', words: /not allowed/ }),
    };
  });
}

/** Starts serve on the home and answers with a caller of its API; `stop` ends it. */
async function startServe(h: ProbeHome): Promise<{ call: (channel: string, body: unknown) => Promise<unknown>; stop: () => void }> {
  const child = spawn(process.execPath, [bin, 'serve', '--codex-home', h.codexHome, '--data-dir', h.dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MEMORY_STUDIO_NO_ELECTRON: '1' },
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(new URL(found[1] as string));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  const token = url.searchParams.get('token') ?? '';
  const call = async (channel: string, body: unknown) =>
    (await fetch(new URL(`/api/${channel}`, url.origin), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as unknown;
  return { call, stop: () => void child.kill('SIGTERM') };
}

async function httpTries(h: ProbeHome, base: string): Promise<ProbeTry[]> {
  const elsewhere = join(base, 'not-a-project');
  mkdirSync(elsewhere, { recursive: true });
  const serve = await startServe(h);
  const tries: ProbeTry[] = [];
  const judge = (name: string, answer: unknown, path: string) => {
    const error = (answer as { ok?: boolean; error?: { kind: string; path?: string } }).error;
    const problems = (answer as { ok?: boolean }).ok !== false ? ['accepted'] : [];
    if (error && (error.kind !== 'Invalid' || error.path !== path)) problems.push(`answered ${JSON.stringify(error)}`);
    tries.push({ name, problems });
  };
  try {
    const promote = await serve.call('doctor.promote', { version: 'v1', file: 'MEMORY.md', line: 2, project: elsewhere });
    judge('serve: doctor.promote into a folder Codex does not know', promote, elsewhere);
    if (existsSync(join(elsewhere, 'AGENTS.md'))) tries.push({ name: 'serve: AGENTS.md written outside', problems: ['written'] });
    for (const channel of ['import.detect', 'import.plan', 'import.propose'])
      judge(
        `serve: ${channel} with a crafted sourceHome`,
        await serve.call(channel, { from: 'claude', sourceHome: h.claudeHome }),
        h.claudeHome,
      );
    const db = join(base, 'other.vscdb');
    judge(
      'serve: import.detect with a crafted cursorStateDb',
      await serve.call('import.detect', { from: 'cursor', cursorStateDb: db }),
      db,
    );
  } finally {
    serve.stop();
  }
  return tries;
}

/** A Claude home whose settings point autoMemoryDirectory at a folder of 60,000 non-Markdown files, and one 20 deep. */
function walkTries(h: ProbeHome, base: string): ProbeTry[] {
  const tries: ProbeTry[] = [];
  const crowd = join(base, 'crowd');
  mkdirSync(crowd, { recursive: true });
  spawnSync('sh', ['-c', 'seq 1 60000 | sed "s/$/.bin/" | xargs touch'], { cwd: crowd });
  const deep = join(base, 'deep', ...Array.from({ length: 20 }, (_, i) => `d${i}`));
  mkdirSync(deep, { recursive: true });
  for (const [name, dir] of [
    ['60,000 files', crowd],
    ['20 folders deep', join(base, 'deep')],
  ] as const) {
    const claude = join(base, `claude-${name.replace(/\W/g, '')}`);
    mkdirSync(join(claude, 'projects'), { recursive: true });
    writeFileSync(join(claude, 'settings.json'), JSON.stringify({ autoMemoryDirectory: dir }));
    const args = ['import', '--from', 'claude', '--source-home', claude, '--codex-home', h.codexHome, '--data-dir', h.dataDir];
    const run = cli([...args, '--plan', '--json'], { env: { HOME: base } });
    const problems = generalProblems(run);
    const error = errorOf(jsonOf(run));
    if (!error || error.kind !== 'Invalid' || error.path !== dir)
      problems.push(`answered ${JSON.stringify(error ?? run.stdout.slice(0, 200))}`);
    if (run.status !== 1) problems.push(`exit ${run.status}`);
    tries.push({ name: `import walk: autoMemoryDirectory of ${name}`, problems });
  }
  return tries;
}

export async function boundaryTries(base: string): Promise<ProbeTry[]> {
  const h = await makeProbeHome(join(base, 'home'));
  return [...dataDirTries(h), ...modelTries(h), ...nameTries(h), ...(await httpTries(h, base)), ...walkTries(h, base)];
}
