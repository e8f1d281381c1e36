// Every file of generated Codex homes (small and heavy): kinds, counts against what the generator wrote, cross
// references that must resolve, zero diagnostics, byte-identical round trips, and parse time of the big files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMemoryFile, serializeParsedFile } from '../../../electron/core/formats';
import { generateHome, type HomeManifest } from '../../fixtures';
import type { ParsedFile, ParsedKind, ParsedOf } from '../../../shared/formats';
import { assertInvariants } from './helpers';

const NOW = new Date('2026-03-05T12:00:00Z');
const temps: string[] = [];

function walk(root: string): string[] {
  const out: string[] = [];
  const rec = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) rec(p);
      else out.push(p);
    }
  };
  rec(root);
  return out.sort();
}

interface Root {
  dir: string;
  files: Map<string, { text: string; parsed: ParsedFile }>;
}

function loadRoot(dir: string, validate: (rel: string) => boolean): Root {
  const files = new Map<string, { text: string; parsed: ParsedFile }>();
  for (const abs of walk(dir)) {
    const rel = relative(dir, abs).split('\\').join('/');
    const text = readFileSync(abs, 'utf8');
    const parsed = parseMemoryFile(text, { path: abs });
    if (validate(rel)) assertInvariants(parsed, text);
    else expect(serializeParsedFile(parsed) === text).toBe(true);
    files.set(rel, { text, parsed });
  }
  return { dir, files };
}

function only<K extends ParsedKind>(root: Root, kind: K): Array<[string, ParsedOf<K>]> {
  return [...root.files].filter(([, f]) => f.parsed.kind === kind).map(([rel, f]) => [rel, f.parsed as ParsedOf<K>]);
}

function one<K extends ParsedKind>(root: Root, rel: string, kind: K): ParsedOf<K> {
  const parsed = root.files.get(rel)?.parsed;
  expect(parsed?.kind).toBe(kind);
  return parsed as ParsedOf<K>;
}

function expectNoDiagnostics(root: Root): void {
  const noisy = [...root.files]
    .filter(([, f]) => f.parsed.diagnostics.length > 0)
    .map(([rel, f]) => [rel, f.parsed.diagnostics.slice(0, 3)]);
  expect(noisy).toEqual([]);
}

/** Threads of rollout summaries, by file name, from their headers. */
function summaryThreads(root: Root): Map<string, string | null> {
  return new Map(only(root, 'rollout_summary').map(([rel, p]) => [rel, p.header.threadId]));
}

function checkV1(root: Root, manifest: HomeManifest): void {
  const summaries = summaryThreads(root);
  expect(summaries.size).toBe(manifest.db.stage1Rows);
  const raw = one(root, 'raw_memories.md', 'raw_memories');
  expect(raw.threads).toHaveLength(summaries.size);
  for (const t of raw.threads) expect(summaries.get(`rollout_summaries/${t.rolloutSummaryFile}`)).toBe(t.threadId);
  const ids = raw.threads.map((t) => t.threadId);
  expect(ids).toEqual([...ids].sort());

  const memory = one(root, 'MEMORY.md', 'memory_md');
  const text = root.files.get('MEMORY.md')?.text ?? '';
  expect(memory.blocks).toHaveLength(text.split('\n').filter((l) => l.startsWith('# Task Group: ')).length);
  const tasks = memory.blocks.flatMap((b) => b.tasks);
  expect(tasks).toHaveLength(manifest.db.stage1Rows + 1); // + the imported Claude Code task
  for (const task of tasks) {
    for (const ref of task.rolloutSummaryFiles) expect(summaries.get(ref.file)).toBe(ref.fields.thread_id);
    for (const ref of task.extensionResourceFiles) expect(existsSync(join(root.dir, ref.file))).toBe(true);
    expect(task.keywords.length).toBeGreaterThan(0);
  }
  expect(tasks.flatMap((t) => t.rolloutSummaryFiles)).toHaveLength(manifest.db.stage1Rows);
  for (const b of memory.blocks) for (const ref of b.skillRefs) expect(existsSync(join(root.dir, ref))).toBe(true);

  const summary = one(root, 'memory_summary.md', 'memory_summary');
  expect(summary).toMatchObject({ firstLineOk: true, style: 'topics', version: 'v1' });
  const refs = summary.topics.flatMap((t) => t.rolloutRefs);
  expect(refs.length).toBeGreaterThan(0);
  for (const ref of refs) expect(summaries.has(ref.file)).toBe(true);

  const skills = only(root, 'skill');
  expect(skills).toHaveLength(3);
  for (const [, s] of skills) expect(s.name).toBe(s.folder);
  // A home at rest has no workspace diff (Codex writes it only during a run).
  expect(root.files.has('phase2_workspace_diff.md')).toBe(false);
}

function checkImport(root: Root): void {
  const base = 'extensions/external_agent_import/resources/-home-dana-src-webapp';
  expect(one(root, `${base}/scope.json`, 'extension_scope')).toMatchObject({
    cwd: '/home/dana/src/webapp',
    compact: true,
    projectKey: '-home-dana-src-webapp',
  });
  const index = one(root, `${base}/MEMORY.md`, 'claude_memory_index');
  expect(index.entries).toHaveLength(3);
  for (const e of index.entries) {
    const topic = one(root, `${base}/${e.target}`, 'claude_memory_topic');
    expect(topic.layout).toBe('flat');
    expect(topic.name).toBe(e.text);
  }
}

function checkV2(root: Root, manifest: HomeManifest): void {
  const summaries = summaryThreads(root);
  expect(summaries.size).toBe(manifest.db.stage1Rows);
  const summary = one(root, 'memory_summary.md', 'memory_summary');
  expect(summary).toMatchObject({ firstLineOk: true, style: 'pointers', version: 'v2' });
  expect(summary.pointers.length).toBeGreaterThan(0);
  for (const p of summary.pointers) {
    expect(p.valid).toBe(true);
    expect(summaries.get(p.file)).toBe(p.threadId);
    expect(p.subBullets).toHaveLength(1);
  }
  const inScopes = summary.scopes.flatMap((s) => [...s.pointers, ...s.dateGroups.flatMap((g) => g.pointers)]);
  expect(inScopes).toHaveLength(summary.pointers.length);
  expect(summary.scopes.some((s) => s.older)).toBe(true);
  expect(root.files.has('MEMORY.md')).toBe(false);
}

function checkNotes(root: Root, crlf: boolean): void {
  const notes = only(root, 'ad_hoc_note');
  expect(notes.length).toBeGreaterThan(0);
  for (const [, n] of notes) expect(n).toMatchObject({ nameValid: true, title: expect.objectContaining({ line: 1 }) });
  expect(notes.some(([, n]) => n.source.eol === 'crlf')).toBe(crlf);
}

describe('generated small home (v1 + v2)', () => {
  let manifest: HomeManifest;
  let v1: Root;
  let v2: Root;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'formats-small-'));
    temps.push(dir);
    manifest = await generateHome({ dir, scale: 'small', version: 'both', now: NOW, git: false });
    v1 = loadRoot(join(dir, 'memories'), () => true);
    v2 = loadRoot(join(dir, 'memories_v2'), () => true);
  });

  it('every file parses to its kind with no diagnostics', () => {
    expectNoDiagnostics(v1);
    expectNoDiagnostics(v2);
    const kinds = (r: Root): Record<string, number> =>
      [...r.files.values()].reduce<Record<string, number>>((acc, f) => ({ ...acc, [f.parsed.kind]: (acc[f.parsed.kind] ?? 0) + 1 }), {});
    expect(kinds(v1)).toEqual({
      memory_md: 1,
      memory_summary: 1,
      raw_memories: 1,
      rollout_summary: manifest.db.stage1Rows,
      skill: 3,
      unknown: 1,
      ad_hoc_note: 3,
      extension_instructions: 2,
      extension_scope: 1,
      claude_memory_index: 1,
      claude_memory_topic: 3,
    });
    // v2 also has Chronicle's folder (instructions plus four time-stamped summaries, which parse as plain Markdown).
    expect(kinds(v2)).toEqual({
      memory_summary: 1,
      rollout_summary: manifest.db.stage1Rows,
      ad_hoc_note: 2,
      extension_instructions: 2,
      unknown: 4,
    });
  });

  it('v1 counts and cross references match what the generator wrote', () => {
    checkV1(v1, manifest);
    checkImport(v1);
    checkNotes(v1, true);
  });

  it('v2 pointers resolve to existing rollout summaries of the same thread', () => {
    checkV2(v2, manifest);
    checkNotes(v2, false);
  });
});

describe('generated heavy home', () => {
  let manifest: HomeManifest;
  let v1: Root;
  let v2: Root;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'formats-heavy-'));
    temps.push(dir);
    manifest = await generateHome({ dir, scale: 'heavy', version: 'both', now: NOW, git: false });
    // Schema-validate the big files and a sample of the 8,192 rollout summaries; round-trip all of them.
    const sample = (rel: string): boolean => !rel.startsWith('rollout_summaries/') || rel.endsWith('0.md');
    v1 = loadRoot(join(dir, 'memories'), sample);
    v2 = loadRoot(join(dir, 'memories_v2'), sample);
  }, 300_000);

  it('counts, cross references and zero diagnostics', () => {
    expect(manifest.db.stage1Rows).toBe(4096);
    expectNoDiagnostics(v1);
    expectNoDiagnostics(v2);
    checkV1(v1, manifest);
    checkImport(v1);
    checkV2(v2, manifest);
  });

  it('parses the 5 MB MEMORY.md and raw_memories.md (the time is printed as a figure; the bench holds the budget)', () => {
    for (const rel of ['MEMORY.md', 'raw_memories.md']) {
      const text = v1.files.get(rel)?.text ?? '';
      expect(text.length).toBeGreaterThan(5_000_000);
      parseMemoryFile(text, { path: rel }); // warm-up
      const t0 = performance.now();
      parseMemoryFile(text, { path: rel });
      const ms = performance.now() - t0;
      console.log(`[formats] heavy ${rel}: ${(text.length / 1e6).toFixed(1)} MB parsed in ${ms.toFixed(0)} ms`);
      expect(parseMemoryFile(text, { path: rel }).lineCount).toBeGreaterThan(10_000);
    }
  });
});

afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});
