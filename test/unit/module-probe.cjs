// Preloaded into a CLI run (NODE_OPTIONS=--require): on exit, the main thread writes the modules it loaded to
// $MEMORY_STUDIO_MODULES_OUT, so a test can say which libraries a command needed. With
// $MEMORY_STUDIO_MODULES_AT_OUTPUT set, it writes those loaded when the process first wrote to stdout instead (what an
// MCP server had loaded when it answered initialize), so later work such as a timed warm-up cannot change the answer.
const { writeFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

if (isMainThread && process.env.MEMORY_STUDIO_MODULES_OUT) {
  const out = process.env.MEMORY_STUDIO_MODULES_OUT;
  let atOutput = null;
  if (process.env.MEMORY_STUDIO_MODULES_AT_OUTPUT) {
    const write = process.stdout.write;
    process.stdout.write = function probeWrite(...args) {
      atOutput ??= Object.keys(require.cache);
      return write.apply(this, args);
    };
  }
  process.on('exit', () => writeFileSync(out, JSON.stringify(atOutput ?? Object.keys(require.cache))));
}
