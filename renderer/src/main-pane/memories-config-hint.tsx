// How to turn memories on: the exact config.toml lines, copyable, for an empty state while Codex's memories are off.
import { useRef, useState } from 'react';
import type { HomeInfo } from '../../../shared/domain';

/**
 * The lines that make Codex write and read memories, or null when they already do. The feature is `[features]
 * memories` (stable, off by default in 0.169 to 0.171); `[memories] use_memories` defaults to true, so it is only shown
 * when config.toml sets it false (docs/codex-facts.md, What the next session is told; Codex 0.169.x and 0.171.0).
 */
export function memoriesConfigLines(home: Pick<HomeInfo, 'codexReads'>): string | null {
  if (home.codexReads.off === 'feature-off') return '[features]\nmemories = true\n';
  if (home.codexReads.off === 'use-memories-off') return '[memories]\nuse_memories = true\n';
  return null;
}

/** Copies through the Clipboard API, else the selection and execCommand (a host that grants no clipboard permission). */
async function copyText(text: string, pre: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!pre) return false;
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    // The lines stay selected when this fails too, so Ctrl+C copies them.
    return document.execCommand('copy');
  }
}

/** A code block with a Copy button that says whether the copy worked. */
export function CopyableCode({ text, testId }: { text: string; testId: string }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  return (
    <div className="copyable-code">
      <pre ref={pre} data-testid={testId}>
        <code>{text}</code>
      </pre>
      <button
        type="button"
        className="button button-small"
        data-testid={`${testId}-copy`}
        onClick={() => void copyText(text, pre.current).then((ok) => setCopied(ok ? 'copied' : 'failed'))}
      >
        {copied === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span className="copyable-code-status muted" role="status">
        {copied === 'failed' ? 'Could not reach the clipboard: the lines are selected, press Ctrl+C.' : ''}
      </span>
    </div>
  );
}

function configVerb(config: HomeInfo['config']): string {
  if (!config.exists) return 'create';
  return config.featureMemories === false ? 'set memories = true under [features] in' : 'add these lines to';
}

/** "Add these lines to <codexHome>/config.toml", with the lines; nothing when memories are on already. */
export function MemoriesConfigHint({ home }: { home: Pick<HomeInfo, 'codexReads' | 'config'> }) {
  const lines = memoriesConfigLines(home);
  if (lines === null) return null;
  const featureOff = home.codexReads.off === 'feature-off';
  return (
    <div className="memories-config-hint" data-testid="memories-config-hint">
      <p>
        {featureOff ? (
          <>
            To turn memories on, {configVerb(home.config)} <code className="break">{home.config.path}</code>
            {home.config.exists ? '' : ' with these lines'}:
          </>
        ) : (
          <>
            <code className="break">{home.config.path}</code> sets <code>use_memories = false</code>, so a new session is told no memory.
            Change it to:
          </>
        )}
      </p>
      <CopyableCode text={lines} testId="memories-config-lines" />
      <p className="muted">
        {featureOff ? (
          <>
            If the file already has a <code>[features]</code> table, put <code>memories = true</code> in it rather than adding a second
            one.{' '}
          </>
        ) : null}
        Codex picks the setting up at its next start; it writes memories after a few sessions have been consolidated.
      </p>
    </div>
  );
}
