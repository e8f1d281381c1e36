// Test helper: starts a consolidation with the COMPILED service in its own process, says "staged" once the engine runs
// (the live memory folder copied into the data folder's staging), then waits to be killed.
const { join } = require('node:path');
const { createStudioService } = require(join(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'service', 'service.js'));

async function main() {
  const [codexHome, dataDir] = process.argv.slice(2);
  const service = createStudioService({
    home: { codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    indexing: false,
    log: () => undefined,
    engines: {
      builtin: async (run) => {
        process.stdout.write(`staged ${run.stagingRoot}\n`);
        await new Promise(() => undefined);
      },
    },
  });
  await service.call('consolidate.start', { version: 'v1', engine: 'builtin' });
}

main().catch((error) => {
  process.stdout.write(`failed ${String(error && error.message)}\n`);
  process.exit(1);
});
