// Once per unit run, before any test file: the pool's worker, transpiled from the sources under test. Plain Node cannot
// run the `.ts` worker, and the compiled one in out/ may be older than the sources; so each file of electron/core
// and shared/ is transpiled (TypeScript's own transpiler, file by file) into a folder under node_modules/.cache
// (where `require` still finds the packages), and MEMORY_STUDIO_POOL_SCRIPT names its worker for every test process.
// A file is transpiled again only when its source changed; a file whose source is gone is removed.
// Tests that start the CLI or serve as processes run out/: when a source is newer than that build, it is built here
// first (the Node part, as `npm run build:node` does), so no test runs code older than the sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const repo = resolve(import.meta.dirname, '..', '..');

function files(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  isolatedModules: true,
  inlineSourceMap: true,
};

/** Brings `into` up to date with the sources; returns the worker script's path there. */
export function transpileWorker(into: string): string {
  const wanted = new Set<string>();
  const isSource = (name: string) => /\.(ts|json)$/.test(name) && !name.endsWith('.d.ts');
  for (const file of [...files(join(repo, 'electron', 'core'), isSource), ...files(join(repo, 'shared'), isSource)]) {
    const out = join(into, relative(repo, file)).replace(/\.ts$/, '.js');
    wanted.add(out);
    if (existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
    const text = readFileSync(file, 'utf8');
    mkdirSync(dirname(out), { recursive: true });
    // Written whole and renamed, so a second run at the same moment never loads half a file.
    const temp = `${out}.${process.pid}.tmp`;
    writeFileSync(temp, file.endsWith('.json') ? text : ts.transpileModule(text, { compilerOptions: OPTIONS, fileName: file }).outputText);
    renameSync(temp, out);
  }
  for (const old of files(into, () => true)) if (!wanted.has(old)) rmSync(old, { force: true });
  return join(into, 'electron', 'core', 'tasks', 'worker-main.js');
}

/** Builds out/ (the Node part) when it is missing or older than a source of electron/ or shared/. */
function buildWhenStale(): void {
  const built = join(repo, 'out', 'electron', 'host', 'cli.js');
  const isTs = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');
  const newest = Math.max(
    ...[...files(join(repo, 'electron'), isTs), ...files(join(repo, 'shared'), isTs)].map((f) => statSync(f).mtimeMs),
  );
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  console.log('out/ is older than the sources: building the Node part (npm run build:node) before the tests.');
  try {
    execFileSync(
      process.execPath,
      [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(repo, 'electron', 'tsconfig.json')],
      {
        stdio: 'inherit',
      },
    );
  } catch {
    // tsc still emits when a module does not type-check; the typecheck step of npm test reports it.
    console.log('tsc reported type errors (above); the tests run what it emitted.');
  }
}

export function setup(): void {
  buildWhenStale();
  const key = createHash('sha256').update(repo).digest('hex').slice(0, 12);
  process.env.MEMORY_STUDIO_POOL_SCRIPT = transpileWorker(join(repo, 'node_modules', '.cache', 'memory-studio-tests', key));
}
