// Masking for what is stored for search: each secret masked, its line breaks kept, so later lines keep their numbers.
import { describe, expect, it } from 'vitest';
import { maskSecretsInText, maskSecretsKeepingLines } from '../../../electron/core/lint/mask-secrets';

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
