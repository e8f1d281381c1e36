// The real Codex CLI versions the interop suite can run, each pinned in its own folder test/interop/codex-cli-<version>/
// (a package.json and its lock; tests only, an install is reused when present). The suite runs one of them: the
// reference (DEFAULT_CODEX_VERSION, what `npm test` and CI run) unless CODEX_VERSION names another listed one.
//
//   node test/interop/install-codex.mjs          installs the selected version (the one the suite will run)
//   node test/interop/install-codex.mjs --all    installs every listed version
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The Codex release Memory Studio is checked against: its schema is REFERENCE_SCHEMA
 * (electron/core/codex-schema/index.ts, a unit test keeps the two equal) and the suite runs it unless told otherwise.
 */
export const DEFAULT_CODEX_VERSION = '0.171.0';

/** `0.171.0`, or a pre-release such as `0.172.0-alpha.3`; not a platform build (`0.171.0-linux-x64`), not a range. */
const VERSION_RE = /^(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})(?:-(alpha|beta|rc)\.(0|[1-9]\d{0,5}))?$/;

export function isCodexVersion(text) {
  return typeof text === 'string' && VERSION_RE.test(text);
}

/** Orders release versions: `0.169.0` < `0.169.1` < `0.171.0-alpha.1` < `0.171.0`. */
export function compareCodexVersions(a, b) {
  const [x, y] = [VERSION_RE.exec(a), VERSION_RE.exec(b)];
  if (!x || !y) throw new Error(`Not a Codex version: ${JSON.stringify(x ? b : a)}`);
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (!x[4] || !y[4]) return (x[4] ? -1 : 0) - (y[4] ? -1 : 0);
  if (x[4] !== y[4]) return x[4] < y[4] ? -1 : 1;
  return Number(x[5]) - Number(y[5]);
}

export function codexDirOf(version) {
  return join(here, `codex-cli-${version}`);
}

/** The version a folder's package.json pins, or null when it pins none (or not exactly). */
function pinnedVersion(dir) {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const pinned = pkg.dependencies?.['@openai/codex'];
    return isCodexVersion(pinned) && existsSync(join(dir, 'package-lock.json')) ? pinned : null;
  } catch {
    return null;
  }
}

/** Every listed Codex, oldest first: a folder codex-cli-<version>/ whose package.json pins exactly that version. */
export function listedCodexVersions() {
  return readdirSync(here)
    .map((name) => /^codex-cli-(.+)$/.exec(name)?.[1])
    .filter((version) => version !== undefined && isCodexVersion(version) && pinnedVersion(codexDirOf(version)) === version)
    .sort(compareCodexVersions);
}

/** Every Codex the suite knows: its version and the folder whose package.json and lock pin it, oldest first. */
export const CODEX_INSTALLS = listedCodexVersions().map((version) => ({ version, dir: codexDirOf(version) }));

/** The Codex this run of the suite uses: CODEX_VERSION when set (it must be listed), else the reference. */
export function selectedCodexVersion(env = process.env) {
  const wanted = env.STUDIO_CODEX_VERSION?.trim() || DEFAULT_CODEX_VERSION;
  if (!isCodexVersion(wanted)) throw new Error(`STUDIO_CODEX_VERSION=${JSON.stringify(wanted)} is not a Codex version such as 0.171.0.`);
  if (!listedCodexVersions().includes(wanted))
    throw new Error(
      `The interop suite lists no Codex ${wanted} (it lists ${listedCodexVersions().join(', ')}): run "npm run compat -- ${wanted}" to add and verify it.`,
    );
  return wanted;
}

const selection = (() => {
  try {
    return { version: selectedCodexVersion(), error: null };
  } catch (error) {
    return { version: DEFAULT_CODEX_VERSION, error: error instanceof Error ? error.message : String(error) };
  }
})();

/** The Codex this run uses; when CODEX_VERSION is wrong, SELECTION_ERROR says why and the suite refuses to start. */
export const CODEX_VERSION = selection.version;
export const SELECTION_ERROR = selection.error;
export const codexCliDir = codexDirOf(CODEX_VERSION);

/** The npm package that carries the native binary for this platform, as Codex's own launcher maps it. */
const TARGETS = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
  'win32-x64': ['@openai/codex-win32-x64', 'x86_64-pc-windows-msvc'],
  'win32-arm64': ['@openai/codex-win32-arm64', 'aarch64-pc-windows-msvc'],
};

/** Where the native codex binary of a version lands, or null on a platform Codex ships no binary for. */
export function codexBinaryPath(version = CODEX_VERSION) {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (!target) return null;
  const [pkg, triple] = target;
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  return join(codexDirOf(version), 'node_modules', ...pkg.split('/'), 'vendor', triple, 'bin', exe);
}

/** The npm launcher of a version (`codex` on a user's PATH after `npm i -g @openai/codex`). */
export function codexLauncherPathOf(version = CODEX_VERSION) {
  return join(codexDirOf(version), 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
}

export const codexLauncherPath = codexLauncherPathOf(CODEX_VERSION);

export function installHint(version = CODEX_VERSION) {
  return `run "node test/interop/install-codex.mjs" (STUDIO_CODEX_VERSION=${version}) with access to the npm registry (it runs "npm ci --prefix ${join('test', 'interop', `codex-cli-${version}`)}", about 300 MB, for the tests only)`;
}

export const INSTALL_HINT = installHint(CODEX_VERSION);

/** The installed version line of a version's binary, or null when it is missing or does not run. */
export function installedVersion(version = CODEX_VERSION) {
  const bin = codexBinaryPath(version);
  if (!bin || !existsSync(bin)) return null;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return result.status === 0 ? result.stdout.trim() : null;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * A version not listed yet gets its folder: a package.json pinning it exactly and the lock npm resolves from the
 * registry (`npm install --package-lock-only`, nothing downloaded but metadata). Throws when the registry has no such
 * version; the folder is then removed again.
 */
export function addCodexVersion(version) {
  if (!isCodexVersion(version)) throw new Error(`Not a Codex version: ${JSON.stringify(version)} (expected e.g. 0.171.0).`);
  const dir = codexDirOf(version);
  if (pinnedVersion(dir) === version) return dir;
  mkdirSync(dir, { recursive: true });
  const pkg = {
    name: `memory-studio-interop-codex-${version}`,
    private: true,
    description: `The real Codex CLI ${version}, installed only for Memory Studio's interop tests (node test/interop/install-codex.mjs, npm run compat; the app never uses it).`,
    dependencies: { '@openai/codex': version },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const result = spawnSync(npm, ['install', '--package-lock-only', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0 || !existsSync(join(dir, 'package-lock.json'))) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`npm could not resolve @openai/codex@${version} from the registry:\n${(result.stderr || result.stdout).trim()}`);
  }
  return dir;
}

/** One version: reused when its binary answers with that version, else installed from its lock file. */
export function installCodex(version) {
  const bin = codexBinaryPath(version);
  if (installedVersion(version) === `codex-cli ${version}`) {
    console.log(`Codex CLI ${version} for the interop suite is installed (${bin}).`);
    return true;
  }
  console.log(`Installing the real Codex CLI ${version} for the interop suite (tests only, about 300 MB, once)...`);
  const result = spawnSync(npm, ['ci', '--prefix', codexDirOf(version), '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  const answered = installedVersion(version);
  if (result.status !== 0 || answered !== `codex-cli ${version}`) {
    console.error(
      `The real Codex CLI ${version} could not be installed for the interop suite (npm exited ${result.status}; binary answered ${JSON.stringify(answered)}): ${installHint(version)}.`,
    );
    return false;
  }
  console.log(`Installed ${answered}.`);
  return true;
}

function main(args) {
  if (SELECTION_ERROR && !args.includes('--all')) {
    console.error(SELECTION_ERROR);
    return 1;
  }
  if (!codexBinaryPath()) {
    console.error(`The interop suite needs the real Codex CLI, which ships no binary for ${process.platform}-${process.arch}.`);
    return 1;
  }
  const versions = args.includes('--all') ? listedCodexVersions() : [CODEX_VERSION];
  let ok = true;
  for (const version of versions) ok = installCodex(version) && ok;
  return ok ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
