// The reference Codex is one release everywhere: the captured schema the app reads and the version the interop suite runs.
import { describe, expect, it } from 'vitest';
import { REFERENCE_SCHEMA } from '../../../electron/core/codex-schema';
import { CLI_VERSION } from '../../../electron/core/demo-home/sessions';
import { DEFAULT_CODEX_VERSION, listedCodexVersions } from '../../interop/install-codex.mjs';

describe('the reference Codex', () => {
  it('is the interop suite’s default, a listed version, and the release demo homes record', () => {
    expect(REFERENCE_SCHEMA.codexVersion).toBe(DEFAULT_CODEX_VERSION);
    expect(listedCodexVersions()).toContain(DEFAULT_CODEX_VERSION);
    expect(CLI_VERSION).toBe(DEFAULT_CODEX_VERSION);
  });
});
