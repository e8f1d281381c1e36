// The layering of electron/core in one line, and the check that holds it: an area may import (statically, or with
// `import()` or `require()`) only the areas below it. `import type` is not counted: it leaves nothing in the output.
// `npm test` runs this; `--graph` prints which areas import which; `--core DIR` checks another tree (the tests' copies).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Lowest first. platform: Node and the disk; runtime: the worker pool (tasks by name only); codex: Codex's names,
 * layout and config; lint … lease: what memory files and Codex's DBs mean (coverage: the ledger of Codex's pipeline);
 * inspect … studio-db: the index and our own stores; history … apply: changes and the one way they are written; doctor … demo-home: features built on those (sync: git transport, arrivals as imports);
 * tasks: the registry of what the pool runs; handlers: the use cases; service: the one composition root the hosts use.
 */
export const LAYERS = [
  'platform',
  'codex-schema',
  'runtime',
  'codex',
  'lint',
  'formats',
  'codex-db',
  'coverage',
  'review',
  'agent-config',
  'sessions',
  'lease',
  'budget',
  'inspect',
  'index-store',
  'studio-db',
  'history',
  'forget',
  'import',
  'consolidate',
  'apply',
  'doctor',
  'sync',
  'embeddings',
  'demo-home',
  'tasks',
  'handlers',
  'service',
];

/**
 * The areas of core a host (electron/host, electron/main) may load: the service, the one composition root (its
 * use-cases/ hold what the CLI, keeper and MCP server ask of core besides the channels), and platform (errors, files).
 */
export const HOST_AREAS = ['platform', 'service'];

const SOURCE = /\.(ts|tsx|mts|cts)$/;

function sourcesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier `text` loads at run time: imports and re-exports that are not type-only, `import()`, `require()`. */
export function runtimeSpecifiers(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const literal = (node) => (node && ts.isStringLiteralLike(node) ? node.text : null);
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(literal(node.moduleSpecifier));
    } else if (ts.isExportDeclaration(node)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (node.moduleSpecifier && !typeOnly) found.push(literal(node.moduleSpecifier));
    } else if (ts.isImportEqualsDeclaration(node) && !node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) {
      found.push(literal(node.moduleReference.expression));
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if ((isImport || isRequire) && node.arguments.length > 0) found.push(literal(node.arguments[0]) ?? '<computed>');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((s) => s !== null);
}

const areaOf = (coreDir, path) => {
  const rel = relative(coreDir, path);
  return rel.startsWith('..') || rel === '' ? null : rel.split(sep)[0];
};

/**
 * Checks `coreDir` against `layers`: returns every import of a higher area (with its file), every area the list does
 * not name, every `import()`/`require()` whose target cannot be read, and the area graph.
 */
export function checkLayers(coreDir, layers = LAYERS) {
  const rank = new Map(layers.map((name, i) => [name, i]));
  const violations = [];
  const unknown = new Set();
  const computed = [];
  const graph = new Map();
  for (const file of sourcesUnder(coreDir)) {
    const from = areaOf(coreDir, file);
    if (from === null || !file.slice(coreDir.length + 1).includes(sep)) continue; // a file at core/'s top has no area
    if (!rank.has(from)) unknown.add(from);
    for (const spec of runtimeSpecifiers(readFileSync(file, 'utf8'), file)) {
      if (spec === '<computed>') {
        computed.push(relative(coreDir, file));
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const to = areaOf(coreDir, resolve(dirname(file), spec));
      if (to === null || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from).add(to);
      if (!rank.has(to)) unknown.add(to);
      else if (rank.has(from) && rank.get(to) > rank.get(from)) violations.push({ file: relative(coreDir, file), from, to, spec });
    }
  }
  return { violations, unknown: [...unknown].sort(), computed, graph };
}

/** Every host import (besides `import type`) of a core area other than HOST_AREAS, for the hosts beside `coreDir`. */
export function checkHosts(coreDir) {
  const violations = [];
  for (const host of ['host', 'main']) {
    const dir = join(coreDir, '..', host);
    let files;
    try {
      files = sourcesUnder(dir);
    } catch {
      continue; // no such host beside this core (a test's copy)
    }
    for (const file of files)
      for (const spec of runtimeSpecifiers(readFileSync(file, 'utf8'), file)) {
        if (!spec.startsWith('.')) continue;
        const to = areaOf(coreDir, resolve(dirname(file), spec));
        if (to !== null && !HOST_AREAS.includes(to)) violations.push({ file: relative(join(coreDir, '..'), file), to, spec });
      }
  }
  return violations;
}

function main() {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const at = process.argv.indexOf('--core');
  const coreDir = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : join(repo, 'electron', 'core');
  const { violations, unknown, computed, graph } = checkLayers(coreDir);
  if (process.argv.includes('--graph'))
    for (const area of LAYERS) console.log(`${area} → ${[...(graph.get(area) ?? [])].sort().join(', ') || '(nothing)'}`);
  for (const v of violations) console.error(`electron/core/${v.file}: the ${v.from} area imports '${v.spec}' of ${v.to}, a higher layer.`);
  for (const area of unknown) console.error(`electron/core/${area}/: an area the layering does not name; add it to LAYERS.`);
  for (const file of computed)
    console.error(`electron/core/${file}: an import() or require() of a computed name, which this check cannot follow.`);
  const hosts = checkHosts(coreDir);
  for (const v of hosts)
    console.error(
      `electron/${v.file}: a host imports '${v.spec}' of core's ${v.to} area; hosts reach core only through ${HOST_AREAS.join(' and ')} (add a use case in service/use-cases/).`,
    );
  const failed = violations.length + unknown.length + computed.length + hosts.length;
  if (failed) {
    console.error(
      `\n${failed} layering problem(s). The order, lowest first: ${LAYERS.join(' ← ')}.\n` +
        'Move the code to the lowest area it belongs in, pass what it needs in from above, or (if the order itself is wrong) change LAYERS in scripts/check-layers.mjs.',
    );
    process.exitCode = 1;
  } else
    console.log(
      `Layers hold: ${LAYERS.length} areas, ${[...graph.values()].reduce((n, s) => n + s.size, 0)} area imports, all downward; hosts reach only ${HOST_AREAS.join(' and ')}.`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
