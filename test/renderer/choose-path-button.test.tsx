// "Choose…" asks main's dialog for a path a page may not type (the app only); serve shows no such button.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChoosePathButton } from '../../renderer/src/common/choose-path-button';
import { ok } from '../../shared/result';
import { studioStub } from './support/studio-stub';

const info = (host: 'electron' | 'serve') => () =>
  ok({ name: 'Memory Studio', version: 't', host, dataDir: '/d', platform: 'linux', readCapBytes: 16 * 1024 * 1024 });

describe('Choose… for a path', () => {
  it('in the app, asks main for the path and hands back what the person picked', async () => {
    const stub = studioStub({ 'app.info': info('electron'), 'app.choosePath': () => ok({ path: '/home/dana/src/app' }) });
    const chosen: string[] = [];
    render(<ChoosePathButton purpose="project" label="Choose a project folder" onChosen={(p) => chosen.push(p)} />, {
      wrapper: stub.wrapper,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose a project folder' }));
    await waitFor(() => expect(chosen).toEqual(['/home/dana/src/app']));
    expect(stub.calls.find((c) => c.channel === 'app.choosePath')?.input).toEqual({ purpose: 'project' });
  });

  it('over serve, offers nothing to click', async () => {
    const stub = studioStub({ 'app.info': info('serve') });
    render(<ChoosePathButton purpose="import-source" label="Choose the Claude Code home" onChosen={() => undefined} />, {
      wrapper: stub.wrapper,
    });
    await waitFor(() => expect(stub.calls.some((c) => c.channel === 'app.info')).toBe(true));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
