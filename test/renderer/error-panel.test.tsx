// Error panels read the same everywhere: title, message with `code`, path, hint, and Retry only where it can help.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ErrorPanel, retryCanHelp } from '../../renderer/src/common/error-panel';
import { errorKinds, type StudioError } from '../../shared/result';

describe('error panel', () => {
  it('shows the kind’s title, the message with quoted commands as code, the path and the hint', () => {
    const error: StudioError = {
      kind: 'Locked',
      message: 'Codex holds the lock on `memories/`.',
      path: '/home/dana/.codex/memories/.lock',
      hint: 'Wait for `codex` to finish, then retry.',
    };
    render(<ErrorPanel error={error} />);
    const panel = screen.getByRole('alert');
    expect(panel.dataset.errorKind).toBe('Locked');
    expect(screen.getByRole('heading').textContent).toBe('Locked');
    expect([...panel.querySelectorAll('code')].map((c) => c.textContent)).toEqual([
      'memories/',
      '/home/dana/.codex/memories/.lock',
      'codex',
    ]);
    expect(panel.textContent).toContain('Wait for codex to finish, then retry.');
  });

  it('shows an unmatched backtick as it is', () => {
    render(<ErrorPanel error={{ kind: 'Internal', message: 'a ` stray' }} />);
    expect(screen.getByRole('alert').querySelector('.error-message')?.textContent).toBe('a ` stray');
  });

  it('offers Retry for a passing failure and calls it; says so while retrying', async () => {
    let retries = 0;
    const { rerender } = render(
      <ErrorPanel title="Cannot read MEMORY.md" error={{ kind: 'Busy', message: 'busy' }} onRetry={() => (retries += 1)} />,
    );
    expect(screen.getByRole('heading').textContent).toBe('Cannot read MEMORY.md');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
    rerender(<ErrorPanel error={{ kind: 'Busy', message: 'busy' }} onRetry={() => undefined} retrying />);
    const button = screen.getByRole('button', { name: 'Retrying…' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it('offers no Retry where the same request gives the same answer, and no alarm for a file it cannot show', () => {
    render(<ErrorPanel error={{ kind: 'Unsupported', message: 'binary file' }} onRetry={() => undefined} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('alert').className).toContain('error-panel-quiet');
    expect(errorKinds.filter((kind) => !retryCanHelp(kind))).toEqual(['Invalid', 'Unsupported']);
  });

  it('names a fault of the machine or of Codex’s files, and offers Retry where it can pass', async () => {
    let retries = 0;
    const { rerender } = render(
      <ErrorPanel
        error={{ kind: 'Unsupported', message: 'The Studio DB could not be written: the disk is full.', fault: 'disk-full' }}
        onRetry={() => (retries += 1)}
      />,
    );
    expect(screen.getByRole('heading').textContent).toBe('Disk full');
    expect(screen.getByRole('alert').dataset.fault).toBe('disk-full');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retries).toBe(1);
    rerender(<ErrorPanel error={{ kind: 'Unsupported', message: 'damaged', fault: 'codex-db-corrupt' }} onRetry={() => undefined} />);
    expect(screen.getByRole('heading').textContent).toBe('Codex’s database is damaged');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
