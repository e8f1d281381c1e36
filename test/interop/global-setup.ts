// Fails the whole interop suite at once, in one line, when the real Codex CLI is not installed (it never skips).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CODEX_INSTALLS, INSTALL_HINT, installedVersion } from './install-codex.mjs';

export function setup(): void {
  for (const { version: wanted } of CODEX_INSTALLS) {
    const version = installedVersion(wanted);
    if (version !== `codex-cli ${wanted}`) {
      throw new Error(`The interop suite needs the real Codex CLI ${wanted} (found ${JSON.stringify(version)}): ${INSTALL_HINT}.`);
    }
  }
  if (!existsSync(resolve(import.meta.dirname, '..', '..', 'out', 'electron', 'host', 'cli.js'))) {
    throw new Error('out/ is missing: run "npm run build" before the interop suite, as npm test does.');
  }
}
