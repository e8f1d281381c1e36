// electron-builder.yml cannot be packaged here (it downloads Electron), so it is validated by electron-builder's own schema.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(__dirname, '..', '..');

async function loadConfig(): Promise<Record<string, unknown>> {
  return parse(await readFile(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
}

async function validate(config: Record<string, unknown>): Promise<void> {
  const { validateConfiguration } = await import('app-builder-lib/out/util/config/config.js');
  const logger = { isEnabled: false, add: () => undefined, save: async () => undefined };
  await validateConfiguration(config as never, logger as never);
}

describe('electron-builder.yml', () => {
  it('passes electron-builder schema validation', async () => {
    await expect(validate(await loadConfig())).resolves.toBeUndefined();
  });

  it('a misspelled key is caught by the same validation (the check can fail)', async () => {
    await expect(validate({ ...(await loadConfig()), electronFusez: {} })).rejects.toThrow(/electronFusez/);
  });

  it('names the product and app as the package does, and ships only the built output', async () => {
    const config = await loadConfig();
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { productName: string; main: string };
    expect(config.productName).toBe(pkg.productName);
    expect(pkg.main.startsWith('out/')).toBe(true);
    expect(config.files).toContain('out/**/*');
  });

  it('flips the fuses the security checklist asks for', async () => {
    const fuses = (await loadConfig()).electronFuses as Record<string, boolean>;
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });
});
