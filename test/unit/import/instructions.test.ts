// instructions.md must be Codex's EXTENSION_INSTRUCTIONS byte for byte: Codex rewrites the file whenever it differs.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMPORT_INSTRUCTIONS as DEMO_INSTRUCTIONS } from '../../../electron/core/demo-home/extensions';
import { IMPORT_INSTRUCTIONS } from '../../../electron/core/import';

describe('instructions.md', () => {
  it("is Codex's EXTENSION_INSTRUCTIONS exactly (memory_import.rs, sednalabs/codex@83d4fdd7 and zarraxx/codex@a464891e)", () => {
    const bytes = Buffer.from(IMPORT_INSTRUCTIONS, 'utf8');
    expect(bytes.length).toBe(3163);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe('d4ad3f79866e712d390783953470d9d00686ef72fbaddcb8d6706e1753a349e7');
    const lines = IMPORT_INSTRUCTIONS.split('\n');
    expect(lines.slice(0, 4)).toEqual(['# Imported external-agent memory', '', '## Interpretation rules', '']);
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(15);
    expect(lines.at(-2)).toBe('- Never edit, rename, or delete extension resources during consolidation.');
    expect(IMPORT_INSTRUCTIONS.endsWith('consolidation.\n')).toBe(true);
  });

  it('is the same constant the demo generator writes', () => {
    expect(DEMO_INSTRUCTIONS).toBe(IMPORT_INSTRUCTIONS);
  });
});
