// `npm test` step: Electronegativity 1.10.3 over the built output and the main/preload sources, every finding classified.
//
// Electronegativity cannot follow a helper that returns webPreferences, so it reports `new BrowserWindow({ webPreferences:
// secureWebPreferences(preload) })` as missing contextIsolation (HIGH) and sandbox. Each known finding is classified here by
// a check that proves it: the flagged window really takes secureWebPreferences(), and the compiled helper really returns
// the safe values. A finding no classifier proves is real: a HIGH one fails the step (exit 1).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const ELECTRON_VERSION = require('electron/package.json').version;
// The built output (main, preload, the renderer with its CSP) and the TypeScript sources, where the BrowserWindow checks
// see `new BrowserWindow` (compiled CommonJS calls it `new electron_1.BrowserWindow`, which the checks do not match).
// The whole electron/ folder, so the global checks see main's navigation and permission handlers.
const INPUTS = ['out', 'electron'];
// The one global check that downloads Electron's release list: no network here, and `-e` pins the version anyway.
const EXCLUDED = ['AvailableSecurityFixesGlobalCheck'];

// The tool's own API (the CLI writes its CSV with two racing async writes, so rows went missing in some runs).
const run = require('@doyensec/electronegativity');

async function scan(input) {
  const result = await run({
    input: join(root, input),
    isRelative: true,
    customScan: [],
    excludeFromScan: EXCLUDED.map((c) => c.toLowerCase()),
    electronVersionOverride: ELECTRON_VERSION,
    // The renderer bundle (Monaco, React) uses class static blocks and private members.
    parserPlugins: ['classStaticBlock', 'classPrivateProperties', 'classPrivateMethods'],
    isVerbose: false,
  });
  // Files its AST walker cannot follow (class static blocks and private fields in the renderer bundle) are listed.
  for (const error of result.errors)
    console.log(
      `  not walked  ${relative(root, error.file ?? input)}: ${error.message ?? ''} (the renderer bundle imports no Electron API: ESLint forbids it)`,
    );
  return result.issues.map((i) => ({
    issue: i.id,
    severity: i.severity.name,
    filename: i.file,
    location: `${i.location.line}:${i.location.column}`,
    description: i.description,
    input,
  }));
}

const guards = require(join(root, 'out', 'electron', 'main', 'guards.js'));
const { CONTENT_SECURITY_POLICY } = require(join(root, 'out', 'electron', 'core', 'service', 'static-files.js'));
const prefs = guards.secureWebPreferences('preload.js');
const sourceOf = (f) => readFileSync(join(root, f.input === 'out' ? 'out' : f.input, f.filename), 'utf8');

/** The flagged `new BrowserWindow({` takes `webPreferences: secureWebPreferences(`, within its option object. */
function windowUsesSecurePrefs(f) {
  const [line] = f.location.split(':').map(Number);
  const after = sourceOf(f)
    .split('\n')
    .slice(line - 1, line + 14)
    .join('\n');
  return /new BrowserWindow\(\{[\s\S]*?webPreferences:\s*secureWebPreferences\(/.test(after)
    ? null
    : 'the window does not take secureWebPreferences()';
}

const prefCheck = (ok, what) => (f) => windowUsesSecurePrefs(f) ?? (ok() ? null : `secureWebPreferences() no longer sets ${what}`);

/** Check id -> a proof that the finding is a false positive (null), or why it is not. */
const CLASSIFIERS = {
  CONTEXT_ISOLATION_JS_CHECK: prefCheck(() => prefs.contextIsolation === true, 'contextIsolation: true'),
  SANDBOX_JS_CHECK: prefCheck(() => prefs.sandbox === true, 'sandbox: true'),
  NODE_INTEGRATION_JS_CHECK: prefCheck(
    () => prefs.nodeIntegration === false && prefs.nodeIntegrationInWorker === false && prefs.nodeIntegrationInSubFrames === false,
    'nodeIntegration off',
  ),
  WEB_SECURITY_JS_CHECK: prefCheck(() => prefs.webSecurity !== false, 'webSecurity'),
  INSECURE_CONTENT_JS_CHECK: prefCheck(() => prefs.allowRunningInsecureContent !== true, 'allowRunningInsecureContent: false'),
  EXPERIMENTAL_FEATURES_JS_CHECK: prefCheck(() => prefs.experimentalFeatures !== true, 'no experimentalFeatures'),
  BLINK_FEATURES_JS_CHECK: prefCheck(() => prefs.enableBlinkFeatures === undefined, 'no enableBlinkFeatures'),
  // Middle-click opens a new window, and every new window is refused (setWindowOpenHandler -> deny) in security.ts.
  AUXCLICK_JS_CHECK: (f) =>
    windowUsesSecurePrefs(f) ??
    (/setWindowOpenHandler\([\s\S]*?action: 'deny'/.test(readFileSync(join(root, 'electron', 'main', 'security.ts'), 'utf8'))
      ? null
      : 'new windows are no longer denied'),
  // The only openExternal call sits behind the https-only gate.
  OPEN_EXTERNAL_JS_CHECK: (f) => {
    // The TypeScript source, or tsc's CommonJS of it: `if (!(0, guards_1.isAllowedExternalUrl)(url)) return false;`.
    const gated =
      /if \(!(?:\(0, guards_1\.)?isAllowedExternalUrl\)?\(url\)\)\s*return false;\s*await (?:electron_1\.)?shell\.openExternal\(url\)/.test(
        sourceOf(f),
      );
    const gate =
      guards.isAllowedExternalUrl('https://example.com') &&
      !guards.isAllowedExternalUrl('http://example.com') &&
      !guards.isAllowedExternalUrl('file:///etc/passwd');
    return gated && gate ? null : 'openExternal is no longer behind isAllowedExternalUrl (https only)';
  },
  // The CSP is sent as a header (app:// and serve), not a meta tag; its one relaxation is style-src 'unsafe-inline' (Monaco).
  CSP_GLOBAL_CHECK: () => {
    const csp = CONTENT_SECURITY_POLICY;
    const strict =
      /default-src 'none'/.test(csp) && /script-src 'self';/.test(csp) && /object-src 'none'/.test(csp) && !/unsafe-eval/.test(csp);
    const onlyInline = (csp.match(/'unsafe-inline'/g) ?? []).length === 1 && /style-src 'self' 'unsafe-inline'/.test(csp);
    return strict && onlyInline ? null : `the CSP changed: ${csp}`;
  },
};

const findings = [];
for (const input of INPUTS) findings.push(...(await scan(input)));
const unclassified = [];
for (const f of findings.sort((a, b) => `${a.input}/${a.filename}${a.issue}`.localeCompare(`${b.input}/${b.filename}${b.issue}`))) {
  const classify = CLASSIFIERS[f.issue];
  const why = classify ? classify(f) : 'no classifier for this check';
  const where = `${f.input}/${f.filename}:${f.location}`;
  if (why === null) console.log(`  classified  ${f.severity.padEnd(6)} ${f.issue} ${where}`);
  else {
    unclassified.push(f);
    console.log(`  REAL        ${f.severity.padEnd(6)} ${f.issue} ${where}: ${why} (${f.description})`);
  }
}
const high = unclassified.filter((f) => f.severity === 'HIGH' || f.severity === 'CRITICAL');
console.log(
  `electronegativity ${ELECTRON_VERSION}: ${findings.length} findings, ${findings.length - unclassified.length} classified as false positives, ${unclassified.length} real (${high.length} HIGH)`,
);
process.exitCode = high.length > 0 ? 1 : 0;
