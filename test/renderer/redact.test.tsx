// Redact in the inspector asks core (review.redact) for the proposal, naming the finding; the renderer builds no edits.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DiagnosticsList } from '../../renderer/src/inspector/diagnostics-list';
import { useRedact } from '../../renderer/src/inspector/use-redact';
import type { FileDiagnostic } from '../../renderer/src/main-pane/file-diagnostics';
import { FileContentSchema } from '../../shared/domain';
import { fail, ok } from '../../shared/result';
import { proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

const file = FileContentSchema.parse({
  version: 'v2',
  path: 'MEMORY.md',
  kind: 'memory',
  content: '# x\r\ntoken: ghp_x\n',
  size: 18,
  mtimeMs: 1,
  lineCount: 3,
  eol: 'crlf',
  injected: false,
  editing: 'curated',
});
const secret: FileDiagnostic = {
  severity: 'error',
  rule: 'secrets/github-pat',
  message: 'This looks like a GitHub token.',
  line: 2,
  endLine: 2,
  startColumn: 8,
  endColumn: 13,
  fixDescription: 'Replace a GitHub token (ghp_****) with [REDACTED_SECRET]',
  fixable: true,
};

function Harness({ onProposed, diagnostics = [secret] }: { onProposed: (id: string) => void; diagnostics?: FileDiagnostic[] }) {
  const redact = useRedact(file, onProposed);
  const state = { diagnostics, pending: false, lintError: redact.error, retryLint: () => undefined };
  return (
    <DiagnosticsList path={file.path} state={state} onJump={() => undefined} onRedact={redact.redact} onRedactAll={redact.redactAll} />
  );
}

describe('Redact', () => {
  it('sends the file and the finding to review.redact and opens the proposal it answers with', async () => {
    const opened: string[] = [];
    const stub = studioStub({ 'review.redact': () => ok(proposal('p-0ab12c')) });
    render(<Harness onProposed={(id) => opened.push(id)} />, { wrapper: stub.wrapper });
    fireEvent.click(screen.getByTestId('redact-button'));
    await waitFor(() => expect(opened).toEqual(['p-0ab12c']));
    expect(stub.calls.filter((c) => c.channel !== 'home.get')).toEqual([
      {
        channel: 'review.redact',
        input: { version: 'v2', path: 'MEMORY.md', secrets: [{ rule: 'secrets/github-pat', line: 2, startColumn: 8 }] },
      },
    ]);
  });

  it('shows core’s refusal and opens nothing', async () => {
    const opened: string[] = [];
    const stub = studioStub({
      'review.redact': () =>
        fail({ kind: 'Conflict', message: 'MEMORY.md no longer has the secret at line 2 (secrets/github-pat); nothing was proposed.' }),
    });
    render(<Harness onProposed={(id) => opened.push(id)} />, { wrapper: stub.wrapper });
    fireEvent.click(screen.getByTestId('redact-button'));
    expect(await screen.findByText(/no longer has the secret at line 2/)).toBeTruthy();
    expect(opened).toEqual([]);
  });

  it('redacts every secret of the file, or of its whole root, as one proposal: core is told the scope, never edits', async () => {
    const opened: string[] = [];
    const stub = studioStub({ 'review.redact': () => ok(proposal('p-0ab12d')) });
    render(<Harness onProposed={(id) => opened.push(id)} diagnostics={[secret, { ...secret, line: 5, endLine: 5 }]} />, {
      wrapper: stub.wrapper,
    });
    fireEvent.click(screen.getByTestId('redact-all-file'));
    await waitFor(() => expect(opened).toEqual(['p-0ab12d']));
    expect(screen.getByTestId('redact-all-file').textContent).toBe('Redact all in this file (2)');
    fireEvent.click(screen.getByTestId('redact-all-root'));
    await waitFor(() => expect(opened).toEqual(['p-0ab12d', 'p-0ab12d']));
    expect(stub.calls.filter((c) => c.channel !== 'home.get')).toEqual([
      { channel: 'review.redact', input: { version: 'v2', path: 'MEMORY.md', all: 'file' } },
      { channel: 'review.redact', input: { version: 'v2', all: 'root' } },
    ]);
  });

  it('offers no "Redact all" for a file without secrets', () => {
    const stub = studioStub({});
    const lint = { ...secret, rule: 'format/heading', fixable: false, fixDescription: null };
    render(<Harness onProposed={() => undefined} diagnostics={[lint]} />, { wrapper: stub.wrapper });
    expect(screen.queryByTestId('redact-all-file')).toBeNull();
    expect(screen.queryByTestId('redact-all-root')).toBeNull();
  });
});
