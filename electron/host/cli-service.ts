// A short-lived service for one CLI command: no watcher, no index, the same core and channels as the app.
import { createStudioService, type StudioService } from '../core/service/service';
import { nodeLauncher, packageVersion } from './paths';
import { cliCodexHome, cliDataDir } from './cli-io';

export function openService(values: { 'codex-home'?: string; 'data-dir'?: string }): StudioService {
  return createStudioService({
    home: cliCodexHome(values['codex-home']),
    dataDir: cliDataDir(values['data-dir']),
    host: 'serve',
    appVersion: packageVersion(),
    watch: false,
    // The commands that need the index open it themselves (cli-index.ts); this service reads the files directly.
    indexing: false,
    mcpLauncher: nodeLauncher(),
    // One command, nobody else waiting on this loop: long work stays in this thread (no workers to start).
    sharedLoop: false,
    // A path on the command line is the person's own (--project, --source-home), not a page's.
    callerPaths: 'person',
  });
}
