// Fails the whole interop suite at once, in one line, when the selected Codex CLI is not installed (it never skips).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CODEX_VERSION, INSTALL_HINT, SELECTION_ERROR, installedVersion } from './install-codex.mjs';

export function setup(): void {
  if (SELECTION_ERROR) throw new Error(SELECTION_ERROR);
  const version = installedVersion(CODEX_VERSION);
  if (version !== `codex-cli ${CODEX_VERSION}`) {
    throw new Error(`The interop suite needs the real Codex CLI ${CODEX_VERSION} (found ${JSON.stringify(version)}): ${INSTALL_HINT}.`);
  }
  if (!existsSync(resolve(import.meta.dirname, '..', '..', 'out', 'electron', 'host', 'cli.js'))) {
    throw new Error('out/ is missing: run "npm run build" before the interop suite, as npm test does.');
  }
  console.log(`Interop suite: the real Codex CLI ${CODEX_VERSION}.`);
}
