// Navigation state: opening files and sessions, Back, proposals bound to their home, and the short names of places.
import { describe, expect, it } from 'vitest';
import { describeLocation, initialNav, navReducer, type NavAction, type NavState } from '../../renderer/src/navigation/location';

const HOME = '/home/dana/.codex';
const run = (actions: NavAction[], from: NavState = initialNav) => actions.reduce(navReducer, from);
const open = (path: string, line?: number): NavAction => ({
  type: 'open-file',
  codexHome: HOME,
  target: { version: 'v2', path, ...(line ? { span: { line, endLine: line } } : {}) },
});

describe('navigation state', () => {
  it('opens a file in the Files view and remembers the previous place for Back', () => {
    const state = run([{ type: 'view', view: 'review' }, open('MEMORY.md'), open('memory_summary.md')]);
    expect(state.view).toBe('files');
    expect(state.location).toMatchObject({ type: 'file', path: 'memory_summary.md' });
    expect(state.history.map((l) => l.type === 'file' && l.path)).toEqual(['MEMORY.md']);
    const back = navReducer(state, { type: 'back' });
    expect(back.location).toMatchObject({ type: 'file', path: 'MEMORY.md', span: null });
    expect(back.history).toEqual([]);
  });

  it('does not add a Back step for a jump inside the open file, but counts the jump as new', () => {
    const first = run([open('MEMORY.md', 3)]);
    const second = navReducer(first, open('MEMORY.md', 40));
    expect(second.history).toEqual([]);
    expect(second.location).toMatchObject({ span: { line: 40, endLine: 40 } });
    expect(second.seq).toBeGreaterThan(first.seq);
  });

  it('drops the history of another home', () => {
    const state = run([open('MEMORY.md'), open('memory_summary.md')]);
    const other = navReducer(state, { type: 'open-file', codexHome: '/tmp/demo', target: { version: 'v1', path: 'MEMORY.md' } });
    expect(other.history).toEqual([]);
    expect(other.codexHome).toBe('/tmp/demo');
  });

  it('binds a proposal to its home and keeps the place only within the same home', () => {
    const state = run([open('MEMORY.md'), { type: 'open-proposal', codexHome: HOME, id: 'p1' }]);
    expect(state).toMatchObject({ view: 'review', proposalId: 'p1' });
    expect(state.location).not.toBeNull();
    const elsewhere = navReducer(state, { type: 'open-proposal', codexHome: '/tmp/demo', id: 'p2' });
    expect(elsewhere.location).toBeNull();
  });

  it('leaves the state alone on Back with no history and on a view it already shows', () => {
    expect(navReducer(initialNav, { type: 'back' })).toBe(initialNav);
    expect(navReducer(initialNav, { type: 'view', view: 'files' })).toBe(initialNav);
  });

  it('caps the history at fifty places', () => {
    const state = run(Array.from({ length: 60 }, (_, i) => open(`rollout_summaries/${i}.md`)));
    expect(state.history).toHaveLength(50);
    expect(state.history[0]).toMatchObject({ path: 'rollout_summaries/9.md' });
  });

  it('names places for Back buttons', () => {
    expect(describeLocation({ type: 'file', version: 'v1', path: 'MEMORY.md', span: null, seq: 1 })).toBe('v1/MEMORY.md');
    expect(describeLocation({ type: 'session', threadId: '019a1c2e-7b10-7c41', seq: 1 })).toBe('session 019a1c2e…');
  });
});
