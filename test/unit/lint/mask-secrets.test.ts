// Masking for what is stored for search: each secret masked, its line breaks kept, so later lines keep their numbers;
// and masking of a whole answer before it is printed, which copies only what holds a secret.
import { describe, expect, it } from 'vitest';
import { maskSecretsDeep, maskSecretsInText, maskSecretsKeepingLines } from '../../../electron/core/lint/mask-secrets';

const token = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;
const pem = [
  '-----BEGIN PRIVATE KEY-----',
  ...Array.from({ length: 4 }, (_, i) => `${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'.slice(i)}${'x'.repeat(40 + i)}`),
  '-----END PRIVATE KEY-----',
].join('\n');

describe('maskSecretsKeepingLines', () => {
  it('masks a token and a multi-line key, and every line after them keeps its number', () => {
    const text = `# Notes\n- token ${token} here\n${pem}\n- after the key\n`;
    const masked = maskSecretsKeepingLines(text);
    expect(masked).not.toContain(token);
    expect(masked).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    expect(masked.split('\n')).toHaveLength(text.split('\n').length);
    expect(masked.split('\n').indexOf('- after the key')).toBe(text.split('\n').indexOf('- after the key'));
    expect(masked).toContain(`- token ${maskSecretsInText(token)} here`);
  });

  it('leaves text without a secret as it is', () => {
    expect(maskSecretsKeepingLines('plain\ntext\n')).toBe('plain\ntext\n');
  });
});

describe('maskSecretsDeep', () => {
  /** The masking it replaced: a whole copy, every string masked. */
  const copyMasked = (value: unknown): unknown =>
    typeof value === 'string'
      ? maskSecretsInText(value)
      : Array.isArray(value)
        ? value.map(copyMasked)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [maskSecretsInText(k), copyMasked(v)]))
          : value;

  it('masks every string and key as a whole copy would, and never changes what it was given', () => {
    const answer = {
      files: [
        { path: 'a.md', size: 3, tags: ['x', null, true] },
        { path: 'b.md', note: `uses ${token}`, nested: { [`key ${token}`]: 1, other: [1, 2] } },
        { path: 'c.md' },
      ],
      total: 2,
    };
    const before = structuredClone(answer);
    const masked = maskSecretsDeep(answer);
    expect(masked).toEqual(copyMasked(answer));
    expect(JSON.stringify(masked)).not.toContain(token);
    expect(answer).toEqual(before);
    // What holds no secret is handed back as it is; what holds one, and each level above it, is a copy.
    expect(masked.files[0]).toBe(answer.files[0]);
    expect(masked.files[2]).toBe(answer.files[2]);
    expect(masked.files[1]).not.toBe(answer.files[1]);
    expect(masked.files[1]?.nested?.other).toBe(answer.files[1]?.nested?.other);
  });

  it('hands back an answer without a secret as it is, keeps a "__proto__" key a property, and copies other objects plainly', () => {
    const plain = { a: ['b', { c: 'd' }], e: 1 };
    expect(maskSecretsDeep(plain)).toBe(plain);
    const parsed = JSON.parse(`{"__proto__": {"x": 1}, "t": "${token}"}`) as Record<string, unknown>;
    const masked = maskSecretsDeep(parsed);
    expect(Object.keys(masked)).toEqual(['__proto__', 't']);
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(JSON.stringify(masked)).toBe(JSON.stringify({ ...(copyMasked(parsed) as object) }));
    class Box {
      constructor(readonly inside: string) {}
    }
    const boxed = maskSecretsDeep({ box: new Box('plain') });
    expect(Object.getPrototypeOf(boxed.box)).toBe(Object.prototype);
    expect(boxed.box).toEqual({ inside: 'plain' });
  });
});
