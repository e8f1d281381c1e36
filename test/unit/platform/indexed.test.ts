// The checked reads that replace `x[i] as T`: in range they return the element; out of range they fail as Internal.
import { describe, expect, it } from 'vitest';
import { group, itemAt } from '../../../electron/core/platform/indexed';
import { StudioFailure } from '../../../electron/core/platform/errors';

describe('checked reads', () => {
  it('itemAt returns the element, including falsy ones, and fails as Internal past either end', () => {
    expect(itemAt(['a', '', 'c'], 1)).toBe('');
    expect(itemAt([0, 1], 0)).toBe(0);
    expect(itemAt([null], 0)).toBeNull();
    expect(itemAt('xy', 1)).toBe('y');
    for (const index of [-1, 2]) {
      const failure = (() => {
        try {
          itemAt(['a', 'b'], index);
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(failure).toBeInstanceOf(StudioFailure);
      expect((failure as StudioFailure).kind).toBe('Internal');
      expect((failure as StudioFailure).message).toContain(`${index} of 2 items`);
    }
  });

  it('group returns a group that took part, even empty, and fails as Internal without quoting the text', () => {
    const m = /^(a*)(b)?(c)$/.exec('c');
    expect(m).not.toBeNull();
    if (!m) return;
    expect(group(m, 1)).toBe('');
    expect(group(m, 3)).toBe('c');
    expect(() => group(m, 2)).toThrow(/Capture group 2/);
  });
});
