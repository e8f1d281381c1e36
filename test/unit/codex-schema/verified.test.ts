// The verified releases the app reads (verified.ts) and the receipts in docs/compat/ are the same set: every entry has
// its receipt saying verified, with the migrations its run recorded, and every receipt saying verified has its entry.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_SCHEMA, VERIFIED_RELEASES } from '../../../electron/core/codex-schema';
import { compareCodexVersions, listedCodexVersions } from '../../interop/install-codex.mjs';

const repo = join(import.meta.dirname, '..', '..', '..');
const compat = join(repo, 'docs', 'compat');

interface CompatRecord {
  version: string;
  result: 'verified' | 'failed';
  date: string;
  capture: { databases: Record<string, { migrations: Array<{ version: number; description: string; checksum: string }> }> } | null;
}

const receipts = readdirSync(compat)
  .filter((name) => /^\d+\.\d+\.\d+(-[a-z]+\.\d+)?\.md$/.test(name))
  .map((name) => ({ version: name.slice(0, -'.md'.length), text: readFileSync(join(compat, name), 'utf8') }));

describe('verified releases and their receipts', () => {
  it('every verified release has its receipt, saying verified, and the migrations its run recorded', () => {
    expect(VERIFIED_RELEASES.length).toBeGreaterThan(0);
    for (const release of VERIFIED_RELEASES) {
      expect(release.receipt).toBe(`docs/compat/${release.version}.md`);
      expect(existsSync(join(repo, release.receipt)), release.receipt).toBe(true);
      const text = readFileSync(join(repo, release.receipt), 'utf8');
      expect(text).toContain(`# Codex ${release.version}: verified`);
      expect(text).toContain('- Result: **verified**');
      const record = JSON.parse(readFileSync(join(compat, `${release.version}.json`), 'utf8')) as CompatRecord;
      expect(record).toMatchObject({ version: release.version, result: 'verified', date: release.verifiedOn });
      const recorded = Object.fromEntries(
        Object.entries(record.capture?.databases ?? {}).map(([name, db]) => [
          name,
          db.migrations.map(({ version, description, checksum }) => ({ version, description, checksum })),
        ]),
      );
      expect(release.databases).toEqual(recorded);
    }
  });

  it('every receipt that says verified is a verified release, and one that says failed is not', () => {
    const verified = VERIFIED_RELEASES.map((r) => r.version);
    for (const receipt of receipts) {
      const says = /^- Result: \*\*(verified|failed)\*\*/m.exec(receipt.text)?.[1];
      expect(says, `${receipt.version}.md states its result`).toBeDefined();
      expect(verified.includes(receipt.version), `${receipt.version}.md says ${says}`).toBe(says === 'verified');
    }
    expect(receipts.map((r) => r.version).sort(compareCodexVersions)).toEqual(expect.arrayContaining(verified));
  });

  it('are in release order, include the reference, and each is a version the interop suite lists', () => {
    const versions = VERIFIED_RELEASES.map((r) => r.version);
    expect([...versions].sort(compareCodexVersions)).toEqual(versions);
    expect(versions).toContain(REFERENCE_SCHEMA.codexVersion);
    for (const v of versions) expect(listedCodexVersions()).toContain(v);
  });
});
