// The homes the bench measures: the heavy demo home, homes with a given number of rollout summaries or a MEMORY.md of a
// given size, and the pathological ones (a 100,000-character line, 500 KB of deeply nested Markdown).
import { spawnSync } from 'node:child_process';
import { cpSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function demoHome(bin, dir, scale) {
  const result = spawnSync(process.execPath, [bin, 'demo-home', dir, '--scale', scale, '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (result.status !== 0) throw new Error(`demo-home failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A copy of `from` (hard links where the bench only reads), with `mutate` applied to the copy's v1 root. */
function derive(from, dir, mutate) {
  rmSync(dir, { recursive: true, force: true });
  cpSync(from, dir, { recursive: true, filter: (src) => !src.includes(`${join(from, 'memories')}/rollout_summaries/`) });
  mutate(join(dir, 'memories'));
  return dir;
}

/** The heavy home's v1 root with exactly `count` rollout summaries (copies get new names past the 4,096 there are). */
export function withSummaries(heavy, dir, count) {
  return derive(heavy, dir, (root) => {
    rmSync(join(root, '..', 'memories_v2'), { recursive: true, force: true });
    const source = join(heavy, 'memories', 'rollout_summaries');
    const names = readdirSync(source).sort();
    const target = join(root, 'rollout_summaries');
    mkdirSync(target, { recursive: true });
    for (let i = 0; i < count; i++) {
      const name = names[i % names.length];
      const copy = i < names.length ? name : name.replace(/\.md$/, `-copy${Math.floor(i / names.length)}.md`);
      linkSync(join(source, name), join(target, copy));
    }
  });
}

/** The small home with MEMORY.md grown to `megabytes` by repeating its blocks. */
export function withMemoryMd(small, dir, megabytes) {
  return derive(small, dir, (root) => {
    cpSync(join(small, 'memories', 'rollout_summaries'), join(root, 'rollout_summaries'), { recursive: true });
    const block = readFileSync(join(root, 'MEMORY.md'), 'utf8');
    const copies = Math.ceil((megabytes * 1_000_000) / Buffer.byteLength(block));
    writeFileSync(join(root, 'MEMORY.md'), Array.from({ length: copies }, () => block).join('\n'));
  });
}

/** Deterministic letters: an unbroken 100,000-character line is one token piece for the o200k split. */
function letters(length, seed = 1) {
  let s = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out += 'abcdefghijklmnopqrstuvwxyz'[s % 26];
  }
  return out;
}

/** The small home whose memory_summary.md ends with one 100,000-character line. */
export function withLongLine(small, dir) {
  return derive(small, dir, (root) => {
    cpSync(join(small, 'memories', 'rollout_summaries'), join(root, 'rollout_summaries'), { recursive: true });
    writeFileSync(join(root, 'memory_summary.md'), `${readFileSync(join(root, 'memory_summary.md'), 'utf8')}\n${letters(100_000)}\n`);
  });
}

/** 500 KB of deeply nested Markdown in memory_summary.md (brackets) and MEMORY.md (lists and quotes 400 deep). */
export function withNested(small, dir) {
  return derive(small, dir, (root) => {
    cpSync(join(small, 'memories', 'rollout_summaries'), join(root, 'rollout_summaries'), { recursive: true });
    writeFileSync(join(root, 'memory_summary.md'), `v1\n${'['.repeat(250_000)}${']'.repeat(250_000)}\n`);
    let nested = '';
    for (let i = 0; nested.length < 500_000; i++)
      nested += `${'  '.repeat(i % 400)}- ${'>'.repeat(i % 50)} [nested (${'('.repeat(i % 40)}x${')'.repeat(i % 40)})](y)\n`;
    writeFileSync(join(root, 'MEMORY.md'), nested.slice(0, 500_000));
  });
}
