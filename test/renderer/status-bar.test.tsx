// The status bar's parts: host from the transport, the root Codex reads and its counts, the feature, diagnostics, live state.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { StatusBar, type StatusBarProps } from '../../renderer/src/status/status-bar';
import { ok } from '../../shared/result';
import { entry, fileList } from './support/fixtures';
import { homeInfo, studioStub } from './support/studio-stub';

const lists = [
  fileList('v1', [entry('MEMORY.md', 'memory', 2048)]),
  fileList('v2', [entry('MEMORY.md', 'memory', 1024), entry('memory_summary.md', 'summary', 1024)]),
];

function show(props: Partial<StatusBarProps>) {
  const stub = studioStub({
    'index.status': () => ok({ state: 'ready', done: 3, total: 3, message: 'Index up to date', notice: null, path: null }),
  });
  let toggles = 0;
  const all: StatusBarProps = {
    appInfo: undefined,
    home: homeInfo,
    lists,
    diagnosticsCount: 0,
    diagnosticsPending: false,
    diagnosticsSeverity: null,
    diagnosticsOpen: false,
    onToggleDiagnostics: () => (toggles += 1),
    ...props,
  };
  render(<StatusBar {...all} />, { wrapper: stub.wrapper });
  return { stub, toggles: () => toggles };
}

describe('status bar', () => {
  it('names the root Codex reads, counts it, and marks the other as not read', () => {
    // The stub home sets no version: Codex's default v2.
    show({});
    expect(screen.getByTestId('status-root').textContent).toBe('Codex reads v2');
    expect(screen.getByTestId('status-files').textContent).toBe('2 files · 2.0 KB');
    expect(screen.getByTestId('status-others').textContent).toBe('+ v1 not read by Codex (default: v2)');
    expect(screen.getByTestId('status-host').textContent).toBe('Desktop app');
  });

  it('keeps the same wording with config.toml naming v1', () => {
    const v1 = { ...homeInfo, codexReads: { version: 'v1' as const, source: 'config' as const, off: null } };
    show({ home: v1 });
    expect(screen.getByTestId('status-root').textContent).toBe('Codex reads v1');
    expect(screen.getByTestId('status-files').textContent).toBe('1 file · 2.0 KB');
    expect(screen.getByTestId('status-others').textContent).toBe('+ v2 not read by Codex (config: v1)');
  });

  it('counts nothing before the read root is listed', () => {
    const v1 = { ...homeInfo, codexReads: { version: 'v1' as const, source: 'config' as const, off: null } };
    show({ home: v1, lists: lists.slice(1) });
    expect(screen.getByTestId('status-files').textContent).toBe('…');
  });

  it('says when Codex reads no root', () => {
    show({ home: { ...homeInfo, codexReads: { ...homeInfo.codexReads, off: 'feature-off' } } });
    expect(screen.getByTestId('status-root').textContent).toBe('Codex reads no root (memories off)');
    expect(screen.getByTestId('status-files').textContent).toBe('3 files · 4.0 KB');
    expect(screen.queryByTestId('status-others')).toBeNull();
  });

  it('says the memories feature and a missing config.toml', () => {
    show({ home: { ...homeInfo, config: { ...homeInfo.config, exists: false, featureMemories: null } } });
    expect(screen.getByTestId('status-config').textContent).toBe('memories feature: not set (no config.toml)');
  });

  it('says when the diagnostics count is not final, and toggles the panel', async () => {
    const { toggles } = show({ diagnosticsCount: 1, diagnosticsPending: true, diagnosticsSeverity: 'error' });
    const button = screen.getByTestId('diagnostics-toggle');
    expect(button.textContent).toBe('1 diagnostic, checking…');
    expect(button.dataset.count).toBeUndefined();
    expect(button.className).toContain('status-error');
    await userEvent.click(button);
    expect(toggles()).toBe(1);
  });

  it('follows the live-update state of the transport', () => {
    const { stub } = show({});
    expect(screen.getByText('Live updates: on')).toBeDefined();
    act(() => stub.live.set('reconnecting'));
    expect(screen.getByText('Live updates: reconnecting…')).toBeDefined();
  });
});
