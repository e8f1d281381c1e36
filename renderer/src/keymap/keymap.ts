// The one keymap: bindings (data) resolved against the scopes that contain the focus, innermost first, global last.
import { createContext, useContext, useEffect, useRef, type RefObject } from 'react';

export interface KeyBinding {
  /** `mod+k` style: `alt`, `ctrl`, `mod` (Ctrl, or Cmd on macOS), `shift`, then `KeyboardEvent.key` (`digit`: Digit0-9 by position). */
  readonly key: string;
  /** `global`, or the name a component gives its element with `useKeyScope`. */
  readonly scope: string;
  readonly command: string;
  readonly description: string;
  /** Also fires while typing (fields, Monaco); without it, text entry keeps its keys. */
  readonly inText?: boolean;
  /** Runs before the focused element and Monaco see the key (capture); otherwise after them, only if none handled it. */
  readonly first?: boolean;
  /** Also fires with nothing focused (the key lands on the body) while its scope is mounted. */
  readonly orphan?: boolean;
  readonly when?: (event: KeyboardEvent) => boolean;
}

/** A command's handler; returning false means "not now", and the key goes on to the next scope out. */
export type CommandHandler = (event: KeyboardEvent) => boolean | void;
export type CommandHandlers = Readonly<Partial<Record<string, CommandHandler>>>;

interface ScopeEntry {
  name: string;
  /** null: the global scope. */
  element: RefObject<HTMLElement | null> | null;
  handlers: RefObject<CommandHandlers>;
}

/** Typing in a field (an input, a text area, Monaco's hidden textarea, a contenteditable) keeps its own keys. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.monaco-editor') !== null;
}

/** Whether the event is the binding's key with exactly its modifiers (a printed character's Shift is part of the key). */
export function keyMatches(binding: string, event: KeyboardEvent): boolean {
  const parts = binding.split('+');
  const key = parts.pop() as string;
  const mods = new Set(parts);
  const mod = mods.has('mod');
  if (event.altKey !== mods.has('alt')) return false;
  if (mod ? !(event.ctrlKey || event.metaKey) : event.ctrlKey !== mods.has('ctrl') || event.metaKey) return false;
  if (key === 'digit') return !event.shiftKey && /^Digit[0-9]$/.test(event.code);
  if (key.length === 1) return mod ? event.key.toLowerCase() === key : event.key === key;
  return event.shiftKey === mods.has('shift') && event.key === key;
}

export interface Keymap {
  /** Adds a scope (or global handlers); the returned function removes it. */
  register(entry: ScopeEntry): () => void;
  /** Stops listening (tests, a closing window). */
  dispose(): void;
}

/** With nothing focused, keys land on the body (or the document). */
function onBody(target: EventTarget | null): boolean {
  if (!(target instanceof Node)) return true;
  return target.nodeType === Node.DOCUMENT_NODE || target === target.ownerDocument?.body;
}

/**
 * The scopes a key reaches, innermost first (they all contain the target, so they nest), then the global one. With
 * nothing focused every mounted scope is reached, but only by its `orphan` bindings.
 */
function scopesFor(entries: readonly ScopeEntry[], target: EventTarget | null): Array<{ entry: ScopeEntry; orphan: boolean }> {
  const scoped = entries.filter((e) => e.element?.current);
  if (onBody(target))
    return [
      ...scoped.map((entry) => ({ entry, orphan: true })),
      ...entries.filter((e) => !e.element).map((entry) => ({ entry, orphan: false })),
    ];
  const node = target as Node;
  const containing = scoped.filter((e) => (e.element?.current as HTMLElement).contains(node));
  containing.sort((a, b) => ((a.element?.current as HTMLElement).contains(b.element?.current as HTMLElement) ? 1 : -1));
  return [...containing, ...entries.filter((e) => !e.element)].map((entry) => ({ entry, orphan: false }));
}

export function createKeymap(target: Window, bindings: readonly KeyBinding[]): Keymap {
  const entries: ScopeEntry[] = [];
  const dispatch = (event: KeyboardEvent, first: boolean) => {
    if (!first && event.defaultPrevented) return;
    const typing = isTextEntry(event.target);
    for (const { entry, orphan } of scopesFor(entries, event.target)) {
      for (const binding of bindings) {
        if (binding.scope !== entry.name || !!binding.first !== first || (typing && !binding.inText) || (orphan && !binding.orphan))
          continue;
        const handler = entry.handlers.current[binding.command];
        if (!handler || !keyMatches(binding.key, event) || (binding.when && !binding.when(event))) continue;
        if (handler(event) === false) continue;
        event.preventDefault();
        if (first) event.stopPropagation();
        return;
      }
    }
  };
  const capture = (event: KeyboardEvent) => dispatch(event, true);
  const bubble = (event: KeyboardEvent) => dispatch(event, false);
  target.addEventListener('keydown', capture, true);
  target.addEventListener('keydown', bubble);
  return {
    register(entry) {
      entries.unshift(entry);
      return () => {
        const index = entries.indexOf(entry);
        if (index >= 0) entries.splice(index, 1);
      };
    },
    dispose() {
      target.removeEventListener('keydown', capture, true);
      target.removeEventListener('keydown', bubble);
    },
  };
}

let windowKeymap: Keymap | undefined;

/** Context so a test can give a tree its own keymap; the app uses the window's, made on first use. */
export const KeymapContext = createContext<Keymap | null>(null);

function useKeymap(bindings: readonly KeyBinding[]): Keymap {
  const own = useContext(KeymapContext);
  if (own) return own;
  windowKeymap ??= createKeymap(window, bindings);
  return windowKeymap;
}

/** Registers handlers for a scope's commands while mounted and enabled; handlers may change on every render. */
export function useScopeHandlers(
  bindings: readonly KeyBinding[],
  name: string,
  element: RefObject<HTMLElement | null> | null,
  handlers: CommandHandlers,
  enabled = true,
): void {
  const keymap = useKeymap(bindings);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!enabled) return undefined;
    return keymap.register({ name, element, handlers: latest });
  }, [keymap, name, element, enabled]);
}
