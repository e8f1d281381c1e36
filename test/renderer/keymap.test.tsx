// The focus-scoped keymap: the innermost scope containing the focus wins, global bindings come last, text entry and
// Monaco keep their keys, and only `orphan` bindings reach a scope with nothing focused.
import { fireEvent, render, screen } from '@testing-library/react';
import { useRef, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { bindings } from '../../renderer/src/keymap/bindings';
import { createKeymap, keyMatches, KeymapContext, useScopeHandlers, type KeyBinding, type Keymap } from '../../renderer/src/keymap/keymap';

let keymap: Keymap | undefined;
afterEach(() => keymap?.dispose());

function withKeymap(list: readonly KeyBinding[]) {
  keymap = createKeymap(window, list);
  const own = keymap;
  return ({ children }: { children: ReactNode }) => <KeymapContext.Provider value={own}>{children}</KeymapContext.Provider>;
}

/** A scope element that records which of its commands ran. */
function Scope({
  list,
  name,
  log,
  children,
  enabled = true,
}: {
  list: readonly KeyBinding[];
  name: string;
  log: string[];
  children?: ReactNode;
  enabled?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const record = (command: string) => () => void log.push(`${name}:${command}`);
  const commands = [...new Set(list.filter((b) => b.scope === name).map((b) => b.command))];
  useScopeHandlers(list, name, name === 'global' ? null : ref, Object.fromEntries(commands.map((c) => [c, record(c)])), enabled);
  return name === 'global' ? (
    <>{children}</>
  ) : (
    <div ref={ref} tabIndex={-1} data-testid={name}>
      {children}
    </div>
  );
}

const list: KeyBinding[] = [
  { key: 'j', scope: 'global', command: 'global-j', description: '' },
  { key: 'j', scope: 'outer', command: 'outer-j', description: '' },
  { key: 'j', scope: 'inner', command: 'inner-j', description: '' },
  { key: 'x', scope: 'outer', command: 'outer-x', description: '' },
  { key: 'mod+k', scope: 'global', command: 'palette', description: '', inText: true, first: true },
  { key: 'Escape', scope: 'inner', command: 'inner-escape', description: '', orphan: true },
];

function tree(log: string[]) {
  return (
    <Scope list={list} name="global" log={log}>
      <Scope list={list} name="outer" log={log}>
        <button type="button">outer button</button>
        <Scope list={list} name="inner" log={log}>
          <button type="button">inner button</button>
          <input aria-label="field" />
          <div className="monaco-editor">
            <textarea aria-label="editor" />
          </div>
        </Scope>
      </Scope>
      <button type="button">elsewhere</button>
    </Scope>
  );
}

describe('scope resolution', () => {
  it('gives a key to the innermost scope that binds it, then outer scopes, then global', () => {
    const log: string[] = [];
    render(tree(log), { wrapper: withKeymap(list) });
    expect(fireEvent.keyDown(screen.getByText('inner button'), { key: 'j' })).toBe(false);
    fireEvent.keyDown(screen.getByText('outer button'), { key: 'j' });
    // `x` is bound only by the outer scope: from inside the inner one it falls through to it.
    fireEvent.keyDown(screen.getByText('inner button'), { key: 'x' });
    fireEvent.keyDown(screen.getByText('elsewhere'), { key: 'j' });
    expect(log).toEqual(['inner:inner-j', 'outer:outer-j', 'outer:outer-x', 'global:global-j']);
  });

  it('leaves a key that no scope binds, or that something else handled, alone', () => {
    const log: string[] = [];
    render(tree(log), { wrapper: withKeymap(list) });
    expect(fireEvent.keyDown(screen.getByText('inner button'), { key: 'q' })).toBe(true);
    const button = screen.getByText('inner button');
    button.addEventListener('keydown', (event) => event.preventDefault(), { once: true });
    fireEvent.keyDown(button, { key: 'j' });
    expect(log).toEqual([]);
  });

  it('keeps text fields and Monaco their own keys, except bindings meant for them (Ctrl+K)', () => {
    const log: string[] = [];
    render(tree(log), { wrapper: withKeymap(list) });
    expect(fireEvent.keyDown(screen.getByLabelText('field'), { key: 'j' })).toBe(true);
    expect(fireEvent.keyDown(screen.getByLabelText('editor'), { key: 'j' })).toBe(true);
    fireEvent.keyDown(screen.getByLabelText('editor'), { key: 'k', ctrlKey: true });
    expect(log).toEqual(['global:palette']);
  });

  it('reaches a scope with nothing focused only through orphan bindings', () => {
    const log: string[] = [];
    render(tree(log), { wrapper: withKeymap(list) });
    fireEvent.keyDown(document.body, { key: 'x' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(log).toEqual(['inner:inner-escape', 'global:global-j']);
  });

  it('forgets a scope that is disabled', () => {
    const log: string[] = [];
    render(
      <Scope list={list} name="outer" log={log} enabled={false}>
        <button type="button">off</button>
      </Scope>,
      { wrapper: withKeymap(list) },
    );
    expect(fireEvent.keyDown(screen.getByText('off'), { key: 'x' })).toBe(true);
    expect(log).toEqual([]);
  });
});

describe('the app bindings', () => {
  it('match modifiers exactly, a printed character with its own Shift, Alt+digit by key position', () => {
    const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', init);
    expect(keyMatches('A', key({ key: 'A', shiftKey: true }))).toBe(true);
    expect(keyMatches('a', key({ key: 'a', ctrlKey: true }))).toBe(false);
    expect(keyMatches('mod+k', key({ key: 'k', metaKey: true }))).toBe(true);
    expect(keyMatches('mod+k', key({ key: 'k', altKey: true, ctrlKey: true }))).toBe(false);
    expect(keyMatches('alt+digit', key({ key: '¡', code: 'Digit1', altKey: true }))).toBe(true);
    expect(keyMatches('alt+ArrowRight', key({ key: 'ArrowRight', altKey: true, shiftKey: true }))).toBe(false);
  });

  it('give every command one meaning per scope and key (no binding shadows another in its own scope)', () => {
    const seen = new Set<string>();
    for (const b of bindings) {
      const id = `${b.scope} ${b.key} ${'first' in b ? 'first' : 'after'}`;
      expect(seen.has(id), id).toBe(false);
      seen.add(id);
    }
  });

  it('let the review panel take `a` but never from a field inside it', () => {
    const log: string[] = [];
    function Panel() {
      const ref = useRef<HTMLElement>(null);
      useScopeHandlers(bindings, 'review', ref, { 'review.accept': () => void log.push('accept') });
      return (
        <section ref={ref} tabIndex={-1} data-testid="panel">
          <textarea aria-label="note" />
        </section>
      );
    }
    render(<Panel />, { wrapper: withKeymap(bindings) });
    fireEvent.keyDown(screen.getByLabelText('note'), { key: 'a' });
    fireEvent.keyDown(screen.getByTestId('panel'), { key: 'a' });
    expect(log).toEqual(['accept']);
  });
});
