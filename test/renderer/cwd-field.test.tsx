// The Projects step's cwd field: what the person types is never overwritten by an older plan answer, nor dropped when
// the step is left before typing settles.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CwdField } from '../../renderer/src/import/projects-step';
import { useWizardKeys } from '../../renderer/src/import/use-wizard-keys';
import { bindings } from '../../renderer/src/keymap/bindings';
import { createKeymap, KeymapContext } from '../../renderer/src/keymap/keymap';
import type { PlanProject } from '../../shared/import';

const project = (cwd: string | null): PlanProject => ({
  key: '-home-dana-src-app',
  cwd,
  detectedCwd: '/home/dana/src/app',
  cwdSource: cwd === '/home/dana/src/app' ? 'session' : 'override',
  sourceDir: '/home/dana/.claude/projects/-home-dana-src-app/memory',
  included: true,
  status: 'importable',
  reason: null,
  files: [],
  change: 'create',
});

const field = () => screen.getByTestId('project-cwd') as HTMLInputElement;

describe('CwdField', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps typing that went on after a pause when the plan answers the pause', () => {
    const commits: Array<string | null> = [];
    const view = render(<CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />);
    fireEvent.change(field(), { target: { value: '/srv/ap' } });
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(commits).toEqual(['/srv/ap']);
    // Typing goes on; then the plan's answer for the pause arrives.
    fireEvent.change(field(), { target: { value: '/srv/app-two' } });
    view.rerender(<CwdField project={project('/srv/ap')} onCommit={(cwd) => commits.push(cwd)} />);
    expect(field().value).toBe('/srv/app-two');
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(commits).toEqual(['/srv/ap', '/srv/app-two']);
    // Once nothing waits, the plan's answer shows (here: the person chose the detected one elsewhere).
    view.rerender(<CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />);
    expect(field().value).toBe('/home/dana/src/app');
  });

  it('takes what was typed when the step is left before typing settles', () => {
    const commits: Array<string | null> = [];
    const view = render(<CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />);
    fireEvent.change(field(), { target: { value: '/srv/elsewhere' } });
    view.unmount();
    expect(commits).toEqual(['/srv/elsewhere']);
    act(() => {
      vi.runAllTimers();
    });
    expect(commits).toEqual(['/srv/elsewhere']);
  });

  it('takes nothing on leaving when the text was already taken, or is not an absolute path', () => {
    const commits: Array<string | null> = [];
    const first = render(<CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />);
    fireEvent.change(field(), { target: { value: '/srv/taken' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    first.unmount();
    const second = render(<CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />);
    fireEvent.change(field(), { target: { value: 'relative/dir' } });
    second.unmount();
    expect(commits).toEqual(['/srv/taken']);
  });

  it('Alt+→ in a field whose typing is not taken yet takes it and stays; the next press moves on', () => {
    const keymap = createKeymap(window, bindings);
    const commits: Array<string | null> = [];
    let moved = 0;
    function Wizard({ children }: { children: ReactNode }) {
      const ref = useRef<HTMLDivElement>(null);
      useWizardKeys(ref, true, { next: () => (moved += 1), back: () => undefined, canNext: true, canBack: true });
      return <div ref={ref}>{children}</div>;
    }
    try {
      render(
        <KeymapContext.Provider value={keymap}>
          <Wizard>
            <CwdField project={project('/home/dana/src/app')} onCommit={(cwd) => commits.push(cwd)} />
          </Wizard>
        </KeymapContext.Provider>,
      );
      field().focus();
      fireEvent.change(field(), { target: { value: '/srv/typed' } });
      expect(field().dataset.pending).toBe('true');
      fireEvent.keyDown(field(), { key: 'ArrowRight', altKey: true });
      expect(commits).toEqual(['/srv/typed']);
      expect(moved).toBe(0);
      expect(field().dataset.pending).toBeUndefined();
      fireEvent.keyDown(document.body, { key: 'ArrowRight', altKey: true });
      expect(moved).toBe(1);
    } finally {
      keymap.dispose();
    }
  });
});
