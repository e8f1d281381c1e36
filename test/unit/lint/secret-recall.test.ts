// Scanner-grade detection: fresh random credentials of every family are found and redacted; look-alikes are not.
import { describe, expect, it } from 'vitest';
import { findSecretSpans, redactAllSecrets, scanSecrets } from '../../../electron/core/lint/secrets';
import { FAMILIES, HEX_AND_UUID_LINES, LOOK_ALIKES, rand, sample } from './secret-corpus';

const PER_FAMILY = 20;

/** Found: a finding overlaps the planted secret, and redacting every finding removes its random middle from the text. */
function found(text: string, secret: string): boolean {
  const at = text.indexOf(secret);
  const overlaps = findSecretSpans(text).some((s) => s.start < at + secret.length && s.end > at);
  const middle = secret.slice(Math.floor(secret.length / 2) - 6, Math.floor(secret.length / 2) + 6);
  return overlaps && !redactAllSecrets(text).includes(middle);
}

describe('recall on a fresh random corpus', () => {
  const misses: string[] = [];
  let total = 0;

  it.each(FAMILIES.map((f) => [f.name, f] as const))('%s', (_name, family) => {
    let hits = 0;
    for (let i = 0; i < PER_FAMILY; i++) {
      const s = sample(family);
      total++;
      if (found(s.text, s.secret)) hits++;
      else misses.push(`${family.name}: ${JSON.stringify(s.text)}`);
    }
    expect(hits, misses.filter((m) => m.startsWith(family.name)).join('\n')).toBeGreaterThanOrEqual(PER_FAMILY - 1);
  });

  it('finds at least 97 % of all of them', () => {
    const recall = (total - misses.length) / total;
    console.info(`secret recall: ${total - misses.length}/${total} = ${(recall * 100).toFixed(1)} % over ${FAMILIES.length} families`);
    expect(total).toBe(FAMILIES.length * PER_FAMILY);
    expect(recall).toBeGreaterThanOrEqual(0.97);
  });
});

describe('false alarms on look-alikes', () => {
  it('raises at most 1 false alarm in 20 look-alikes, and none in most rounds', () => {
    expect(LOOK_ALIKES).toHaveLength(24);
    const rounds = 10;
    const alarms: string[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const look of LOOK_ALIKES) {
        const text = look.make();
        const findings = scanSecrets(text);
        if (findings.length > 0) alarms.push(`${look.name}: ${findings.map((f) => f.rule).join(', ')} in ${JSON.stringify(text)}`);
      }
    }
    console.info(
      `secret false alarms: ${alarms.length} in ${rounds * LOOK_ALIKES.length} look-alikes${alarms.length ? `\n${alarms.join('\n')}` : ''}`,
    );
    expect(alarms.length, alarms.join('\n')).toBeLessThanOrEqual(rounds);
  });
});

describe('hex digests and UUIDs are never secrets by entropy alone', () => {
  it('raises no alarm on a memory file of 30 such lines, in any of 20 files', () => {
    const alarms: string[] = [];
    let lines = 0;
    for (let file = 0; file < 20; file++) {
      const text = Array.from({ length: 30 }, (_, i) =>
        (HEX_AND_UUID_LINES[(i + file) % HEX_AND_UUID_LINES.length] as (sha: string) => string)(rand('0123456789abcdef', 40)),
      );
      lines += text.length;
      for (const f of scanSecrets(text.join('\n'))) alarms.push(`${f.rule} on line ${f.line}: ${text[f.line - 1]}`);
    }
    console.info(`hex and UUID lines: ${alarms.length} alarms in ${lines}`);
    expect(alarms, alarms.join('\n')).toEqual([]);
  });
});
