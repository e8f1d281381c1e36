// One whole three-way merge, the way `git merge-file -p THEIRS BASE OURS` is one: read the three files, merge, hunks, write.
// As a process: node rebase-child.cjs <root> <theirs> <base> <ours> <out>; the bench also calls mergeFiles in process.
const { readFileSync, writeFileSync } = require('node:fs');
const { TextDecoder } = require('node:util');
const { join } = require('node:path');

/** Returns 0 when merged cleanly, 1 when conflicts remain (git returns their count). */
function mergeFiles(root, theirsPath, basePath, oursPath, outPath) {
  const { threeWay } = require(join(root, 'out', 'electron', 'core', 'review', 'three-way.js'));
  // Strict UTF-8, as Memory Studio reads memory files (a file that is not is refused, never merged).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const read = (path) => decoder.decode(readFileSync(path));
  const result = threeWay(read(basePath), read(theirsPath), read(oursPath));
  writeFileSync(outPath, result.proposed ?? '');
  return result.kind === 'conflicts' ? 1 : 0;
}

module.exports = { mergeFiles };

if (require.main === module) {
  const [root, theirsPath, basePath, oursPath, outPath] = process.argv.slice(2);
  process.exitCode = mergeFiles(root, theirsPath, basePath, oursPath, outPath);
}
