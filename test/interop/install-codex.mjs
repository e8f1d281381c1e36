// Installs the real Codex CLI versions the interop suite runs, each into its own folder under test/interop (tests only;
// an install is reused when present): 0.169.0, the default of the suite, and 0.171.0, the MCP client of `mcp.test.ts`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Every Codex the suite runs: its version and the folder whose package.json and lock pin it. The first is the default. */
export const CODEX_INSTALLS = [
  { version: '0.169.0', dir: join(here, 'codex-cli') },
  // The first release that starts `[mcp_servers.NAME]` and shows their tools to the model as a namespace.
  { version: '0.171.0', dir: join(here, 'codex-cli-0.171.0') },
];

export const CODEX_VERSION = CODEX_INSTALLS[0].version;
export const codexCliDir = CODEX_INSTALLS[0].dir;
export const MCP_CODEX_VERSION = '0.171.0';

/** The npm package that carries the native binary for this platform, as Codex's own launcher maps it. */
const TARGETS = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
  'win32-x64': ['@openai/codex-win32-x64', 'x86_64-pc-windows-msvc'],
  'win32-arm64': ['@openai/codex-win32-arm64', 'aarch64-pc-windows-msvc'],
};

/** The install folder of a version the suite knows. */
export function codexDirOf(version = CODEX_VERSION) {
  const install = CODEX_INSTALLS.find((i) => i.version === version);
  if (!install)
    throw new Error(`The interop suite installs no Codex ${version} (it knows ${CODEX_INSTALLS.map((i) => i.version).join(', ')}).`);
  return install.dir;
}

/** Where the native codex binary of a version lands, or null on a platform Codex ships no binary for. */
export function codexBinaryPath(version = CODEX_VERSION) {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (!target) return null;
  const [pkg, triple] = target;
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  return join(codexDirOf(version), 'node_modules', ...pkg.split('/'), 'vendor', triple, 'bin', exe);
}

/** The npm launcher of the default version (`codex` on a user's PATH after `npm i -g @openai/codex`). */
export const codexLauncherPath = join(codexCliDir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');

const hintFor = (install) =>
  `run "npm ci --prefix ${join('test', 'interop', install.dir.slice(here.length + 1))}" with access to the npm registry (it installs @openai/codex@${install.version}, about 300 MB, for the tests only)`;

export const INSTALL_HINT = `run "node test/interop/install-codex.mjs" with access to the npm registry (it installs @openai/codex ${CODEX_INSTALLS.map((i) => i.version).join(' and ')}, about 300 MB each, for the tests only)`;

/** The installed version line of a version's binary, or null when it is missing or does not run. */
export function installedVersion(version = CODEX_VERSION) {
  const bin = codexBinaryPath(version);
  if (!bin || !existsSync(bin)) return null;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** One version: reused when its binary answers with that version, else installed from its lock file. */
function install(entry) {
  const bin = codexBinaryPath(entry.version);
  if (installedVersion(entry.version) === `codex-cli ${entry.version}`) {
    console.log(`Codex CLI ${entry.version} for the interop suite is installed (${bin}).`);
    return true;
  }
  console.log(`Installing the real Codex CLI ${entry.version} for the interop suite (tests only, about 300 MB, once)...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', entry.dir, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  const version = installedVersion(entry.version);
  if (result.status !== 0 || version !== `codex-cli ${entry.version}`) {
    console.error(
      `The real Codex CLI ${entry.version} could not be installed for the interop suite (npm exited ${result.status}; binary answered ${JSON.stringify(version)}): ${hintFor(entry)}.`,
    );
    return false;
  }
  console.log(`Installed ${version}.`);
  return true;
}

function main() {
  if (!codexBinaryPath()) {
    console.error(`The interop suite needs the real Codex CLI, which ships no binary for ${process.platform}-${process.arch}.`);
    return 1;
  }
  let ok = true;
  for (const entry of CODEX_INSTALLS) ok = install(entry) && ok;
  return ok ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
