// History says when a change removed secrets: Memory Studio keeps none, so a revert cannot bring them back.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SecretsRemoved } from '../../renderer/src/history/history-page';
import { HistoryEntrySchema } from '../../shared/review';

const entry = (secretsRemoved?: number) =>
  HistoryEntrySchema.parse({
    id: 'e-0a1b2c',
    kind: 'apply',
    proposalId: 'p-0a1b2c',
    at: 1,
    summary: 'Redact 2 secrets in MEMORY.md',
    files: [
      {
        version: 'v1',
        target: 'memory',
        root: '/home/me/.codex/memories',
        relPath: 'MEMORY.md',
        beforeSha256: 'a',
        afterSha256: 'b',
        beforeSize: 10,
        afterSize: 9,
        ...(secretsRemoved ? { secretsRemoved } : {}),
      },
    ],
  });

describe('an entry that removed secrets', () => {
  it('says it cannot be reverted to them, as core counted them', () => {
    render(<SecretsRemoved entry={entry(2)} />);
    expect(screen.getByTestId('history-secrets-removed').textContent).toContain('This change removed 2 secrets');
    expect(screen.getByTestId('history-secrets-removed').textContent).toContain('cannot be reverted to them');
  });

  it('says nothing for an entry that removed none', () => {
    render(<SecretsRemoved entry={entry()} />);
    expect(screen.queryByTestId('history-secrets-removed')).toBeNull();
  });
});
