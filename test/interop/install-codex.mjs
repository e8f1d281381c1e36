// Installs the real Codex CLI 0.169.0 for the interop suite into test/interop/codex-cli (tests only; reused when present).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODEX_VERSION = '0.169.0';
const here = dirname(fileURLToPath(import.meta.url));
export const codexCliDir = join(here, 'codex-cli');

/** The npm package that carries the native binary for this platform, as Codex's own launcher maps it. */
const TARGETS = {
  'linux-x64': ['@openai/codex-linux-x64', 'x86_64-unknown-linux-musl'],
  'linux-arm64': ['@openai/codex-linux-arm64', 'aarch64-unknown-linux-musl'],
  'darwin-x64': ['@openai/codex-darwin-x64', 'x86_64-apple-darwin'],
  'darwin-arm64': ['@openai/codex-darwin-arm64', 'aarch64-apple-darwin'],
  'win32-x64': ['@openai/codex-win32-x64', 'x86_64-pc-windows-msvc'],
  'win32-arm64': ['@openai/codex-win32-arm64', 'aarch64-pc-windows-msvc'],
};

/** Where the native codex binary lands, or null on a platform Codex ships no binary for. */
export function codexBinaryPath() {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (!target) return null;
  const [pkg, triple] = target;
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  return join(codexCliDir, 'node_modules', ...pkg.split('/'), 'vendor', triple, 'bin', exe);
}

/** The npm launcher (`codex` on a user's PATH after `npm i -g @openai/codex`). */
export const codexLauncherPath = join(codexCliDir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js');

export const INSTALL_HINT = `run "npm ci --prefix test/interop/codex-cli" with access to the npm registry (it installs @openai/codex@${CODEX_VERSION}, about 300 MB, for the tests only)`;

/** The installed version line, or null when the binary is missing or does not run. */
export function installedVersion() {
  const bin = codexBinaryPath();
  if (!bin || !existsSync(bin)) return null;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  return result.status === 0 ? result.stdout.trim() : null;
}

function main() {
  const bin = codexBinaryPath();
  if (!bin) {
    console.error(`The interop suite needs the real Codex CLI, which ships no binary for ${process.platform}-${process.arch}.`);
    return 1;
  }
  if (installedVersion() === `codex-cli ${CODEX_VERSION}`) {
    console.log(`Codex CLI ${CODEX_VERSION} for the interop suite is installed (${bin}).`);
    return 0;
  }
  console.log(`Installing the real Codex CLI ${CODEX_VERSION} for the interop suite (tests only, about 300 MB, once)...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', codexCliDir, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  const version = installedVersion();
  if (result.status !== 0 || version !== `codex-cli ${CODEX_VERSION}`) {
    console.error(
      `The real Codex CLI ${CODEX_VERSION} could not be installed for the interop suite (npm exited ${result.status}; binary answered ${JSON.stringify(version)}): ${INSTALL_HINT}.`,
    );
    return 1;
  }
  console.log(`Installed ${version}.`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
