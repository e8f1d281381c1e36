// The Alt+digit of each view: one place decides it, so the tabs, the palette and the first screen's hint agree.
import { describe, expect, it } from 'vitest';
import { viewForKey, viewKey, views } from '../../../renderer/src/navigation/location';
import { paletteItems } from '../../../renderer/src/search/palette-model';

describe('view shortcuts', () => {
  it('numbers the views 1..9 in order and gives the tenth 0, the number row; a view past the row has no key', () => {
    expect(views.map(viewKey)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', null, null]);
    expect(viewKey('sync')).toBeNull();
    expect(viewKey('coverage')).toBeNull();
    expect(viewKey('search')).toBe('9');
    expect(viewKey('doctor')).toBe('0');
  });

  it('maps each digit back to its view, and nothing for a key that is not a digit', () => {
    for (const view of views) {
      const key = viewKey(view);
      if (key !== null) expect(viewForKey(key)).toBe(view);
    }
    expect(viewForKey('x')).toBeUndefined();
  });

  it("the palette's Go to actions show the same keys as the tabs", () => {
    const actions = paletteItems('go to', [], []).filter((i) => i.type === 'action' && i.run.kind === 'view');
    expect(actions.map((a) => [a.label, a.detail])).toContainEqual(['Go to Doctor', 'Alt+0']);
    expect(actions.map((a) => [a.label, a.detail])).toContainEqual(['Go to Search', 'Alt+9']);
    expect(actions.map((a) => [a.label, a.detail])).toContainEqual(['Go to Sync', '']);
    expect(actions.map((a) => [a.label, a.detail])).toContainEqual(['Go to Coverage', '']);
    expect(actions).toHaveLength(views.length);
  });
});
