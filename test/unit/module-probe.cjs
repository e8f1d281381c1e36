// Preloaded into a CLI run (NODE_OPTIONS=--require): on exit, the main thread writes the modules it loaded to
// $MEMORY_STUDIO_MODULES_OUT, so a test can say which libraries a command needed.
const { writeFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

if (isMainThread && process.env.MEMORY_STUDIO_MODULES_OUT) {
  const out = process.env.MEMORY_STUDIO_MODULES_OUT;
  process.on('exit', () => writeFileSync(out, JSON.stringify(Object.keys(require.cache))));
}
