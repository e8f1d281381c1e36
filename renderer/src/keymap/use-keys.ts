// The hooks components use: a scope on their element, or handlers for global commands, typed by the app's bindings.
import type { RefObject } from 'react';
import { bindings, type Command, type ScopeName } from './bindings';
import { useScopeHandlers, type CommandHandler } from './keymap';

export type Handlers = Partial<Record<Command, CommandHandler>>;

/** The element's scope: its bindings fire while the focus is inside it (the innermost scope first). */
export function useKeyScope(element: RefObject<HTMLElement | null>, scope: ScopeName, handlers: Handlers, enabled = true): void {
  useScopeHandlers(bindings, scope, element, handlers, enabled);
}

/** Handlers for global bindings: they fire when no focused scope takes the key first. */
export function useGlobalKeys(handlers: Handlers, enabled = true): void {
  useScopeHandlers(bindings, 'global', null, handlers, enabled);
}
