// instructions.md: Codex's interpretation rules in our words, written only where missing (an existing one is kept).
import { describe, expect, it } from 'vitest';
import { IMPORT_INSTRUCTIONS as DEMO_INSTRUCTIONS } from '../../../electron/core/demo-home/extensions';
import { IMPORT_INSTRUCTIONS } from '../../../electron/core/import';

describe('instructions.md', () => {
  it("states every rule of Codex's EXTENSION_INSTRUCTIONS the consolidator relies on", () => {
    const bullets = IMPORT_INSTRUCTIONS.split('\n').filter((l) => l.startsWith('- '));
    expect(bullets).toHaveLength(15);
    for (const needle of [
      'scope.json',
      '### extension_resource_files',
      'source=external_agent_import',
      'metadata.originSessionId',
      '### Older Memory Topics',
      "## What's in Memory",
      'Never edit, rename or delete',
    ]) {
      expect(IMPORT_INSTRUCTIONS).toContain(needle);
    }
    expect(IMPORT_INSTRUCTIONS.startsWith('# Imported external-agent memory\n')).toBe(true);
    expect(IMPORT_INSTRUCTIONS.endsWith('\n')).toBe(true);
  });

  it('is the same constant the demo generator writes', () => {
    expect(DEMO_INSTRUCTIONS).toBe(IMPORT_INSTRUCTIONS);
  });
});
