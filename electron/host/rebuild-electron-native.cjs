#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into out/native/electron/, beside Node's own build (needs Electron's headers once).
'use strict';
const { execFileSync } = require('node:child_process');
const { cpSync, mkdirSync, copyFileSync, rmSync } = require('node:fs');
const { dirname, join } = require('node:path');

const root = join(__dirname, '..', '..');
const electronVersion = require(join(root, 'node_modules', 'electron', 'package.json')).version;
const source = dirname(require.resolve('better-sqlite3/package.json', { paths: [root] }));
const work = join(root, 'out', 'native', 'better-sqlite3-electron');
const target = join(root, 'out', 'native', 'electron');

rmSync(work, { recursive: true, force: true });
cpSync(source, work, { recursive: true, filter: (path) => !path.includes(`${join(source, 'build')}`) });
console.log(`Building better-sqlite3 for Electron ${electronVersion} ...`);
execFileSync(
  'npx',
  [
    '--yes',
    'node-gyp',
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    '--runtime=electron',
    '--dist-url=https://electronjs.org/headers',
  ],
  { cwd: work, stdio: process.argv.includes('--quiet') ? 'pipe' : 'inherit' },
);
mkdirSync(target, { recursive: true });
copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), join(target, 'better_sqlite3.node'));
rmSync(work, { recursive: true, force: true });
console.log(`Electron build of better-sqlite3 written to ${target}.`);
