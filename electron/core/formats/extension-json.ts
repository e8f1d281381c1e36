// Parsers for the JSON files of extensions: a persistent extension's manifest.json and an import's scope.json.
import { group, itemAt } from '../platform/indexed';
import type { ManifestResource } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { lineBreaks } from './lines';

const MANIFEST_CONSEQUENCE =
  'Codex cannot read this manifest: it treats it as empty (so it will not remove the files it lists) and rewrites it at the next sync.';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** 1-based line of a UTF-16 offset in the text after the BOM. */
function lineAtOffset(ctx: ParseContext, offset: number): number {
  const breaks = lineBreaks(ctx.src);
  let pos = 0;
  for (const [i, line] of ctx.lines.entries()) {
    pos += line.length + itemAt(breaks, i).length;
    if (offset < pos) return i + 1;
  }
  return Math.max(1, ctx.lines.length);
}

/** `JSON.parse` that reports the error's line instead of throwing. */
function parseJson(ctx: ParseContext): { value: Json; ok: true } | { ok: false } {
  const body = ctx.src.bom ? ctx.text.slice(1) : ctx.text;
  try {
    return { value: JSON.parse(body) as Json, ok: true };
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? lineAtOffset(ctx, Number(at[1])) : /end of JSON/i.test(message) ? Math.max(1, ctx.lines.length) : 1;
    ctx.diags.error('format/invalid-json', line, line, `Not valid JSON: ${message}.`);
    return { ok: false };
  }
}

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Line range of `"id": {…}` in a (normally pretty-printed) manifest: the key's line to the first `}` after it. */
function locateKey(lines: readonly string[], id: string, after: number): { line: number; endLine: number } {
  const needle = JSON.stringify(id);
  for (const [i, line] of lines.entries()) {
    if (i < after) continue;
    const at = line.indexOf(needle);
    if (at < 0 || !/^\s*:/.test(line.slice(at + needle.length))) continue;
    const close = lines.findIndex((l, j) => j >= i && l.includes('}'));
    if (close >= 0) return { line: i + 1, endLine: close + 1 };
    return { line: i + 1, endLine: i + 1 };
  }
  return { line: Math.max(1, after + 1), endLine: Math.max(1, after + 1) };
}

function readResource(ctx: ParseContext, id: string, entry: Json, after: number): ManifestResource {
  const where = locateKey(ctx.lines, id, after);
  const resource: ManifestResource = { id, targetFileName: null, contentSha256: null, ...where };
  if (!isObject(entry)) {
    ctx.diags.error(
      'format/manifest-shape',
      where.line,
      where.endLine,
      `Resource "${id}" must be an object with "targetFileName" and "contentSha256". ${MANIFEST_CONSEQUENCE}`,
    );
    return resource;
  }
  const target = entry.targetFileName;
  const sha = entry.contentSha256;
  if (typeof target === 'string') resource.targetFileName = target;
  if (typeof sha === 'string') resource.contentSha256 = sha;
  if (typeof target !== 'string' || typeof sha !== 'string') {
    ctx.diags.error(
      'format/manifest-shape',
      where.line,
      where.endLine,
      `Resource "${id}" needs string fields "targetFileName" and "contentSha256". ${MANIFEST_CONSEQUENCE}`,
    );
  }
  if (typeof target === 'string' && (!/^[^/\\]+\.md$/.test(target) || target === '.md' || target.startsWith('..'))) {
    ctx.diags.warning(
      'format/manifest-target',
      where.line,
      where.endLine,
      `"${target}" must be one flat Markdown file name below resources/ (no folders, ending in .md).`,
    );
  }
  if (typeof sha === 'string' && !/^[0-9a-f]{64}$/.test(sha)) {
    ctx.diags.info(
      'format/manifest-hash',
      where.line,
      where.endLine,
      `"${sha}" does not look like a SHA-256 hex digest (64 lowercase hex characters).`,
    );
  }
  return resource;
}

function readResources(ctx: ParseContext, root: { [key: string]: Json }): ManifestResource[] {
  const resourcesLine = ctx.lines.findIndex((l) => l.includes('"resources"'));
  if (!isObject(root.resources)) {
    ctx.diags.error(
      'format/manifest-shape',
      Math.max(1, resourcesLine + 1),
      Math.max(1, resourcesLine + 1),
      `"resources" must be an object of <source id> → { targetFileName, contentSha256 }. ${MANIFEST_CONSEQUENCE}`,
    );
    return [];
  }
  const resources = Object.entries(root.resources).map(([id, entry]) => readResource(ctx, id, entry, Math.max(0, resourcesLine)));
  const seen = new Map<string, string>();
  for (const r of resources) {
    if (r.targetFileName === null) continue;
    const other = seen.get(r.targetFileName);
    if (other !== undefined)
      ctx.diags.warning(
        'format/manifest-target',
        r.line,
        r.endLine,
        `"${r.targetFileName}" is also the target of resource "${other}"; Codex requires unique target file names.`,
      );
    else seen.set(r.targetFileName, r.id);
  }
  return resources;
}

export function parseExtensionManifest(ctx: ParseContext): Body<'extension_manifest'> {
  const m = ctx.rel ? /^extensions\/([^/]+)\/manifest\.json$/.exec(ctx.rel) : null;
  const base: Body<'extension_manifest'> = {
    kind: 'extension_manifest',
    extension: m ? group(m, 1) : null,
    validJson: false,
    version: null,
    resources: [],
  };
  const parsed = parseJson(ctx);
  if (!parsed.ok) return base;
  base.validJson = true;
  const root = parsed.value;
  if (!isObject(root)) {
    ctx.diags.error(
      'format/manifest-shape',
      1,
      Math.max(1, ctx.lines.length),
      `A manifest is an object {"version": 1, "resources": {…}}. ${MANIFEST_CONSEQUENCE}`,
    );
    return base;
  }
  const versionLine = Math.max(1, ctx.lines.findIndex((l) => l.includes('"version"')) + 1);
  if (typeof root.version === 'number') base.version = root.version;
  if (typeof root.version !== 'number' || !Number.isInteger(root.version) || root.version < 0) {
    ctx.diags.error('format/manifest-shape', versionLine, versionLine, `"version" must be a whole number (1). ${MANIFEST_CONSEQUENCE}`);
  } else if (root.version !== 1) {
    ctx.diags.warning(
      'format/manifest-shape',
      versionLine,
      versionLine,
      `Manifest version ${root.version} is not 1, the only version Codex knows; it will resync the extension and rewrite the manifest.`,
    );
  }
  base.resources = readResources(ctx, root);
  return base;
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

export function parseExtensionScope(ctx: ParseContext): Body<'extension_scope'> {
  const m = ctx.rel ? /\/resources\/([^/]+)\/scope\.json$/.exec(`/${ctx.rel}`) : null;
  const base: Body<'extension_scope'> = {
    kind: 'extension_scope',
    projectKey: m ? group(m, 1) : null,
    validJson: false,
    cwd: null,
    compact: false,
  };
  const parsed = parseJson(ctx);
  if (!parsed.ok) return base;
  base.validJson = true;
  const root = parsed.value;
  const last = Math.max(1, ctx.lines.length);
  if (!isObject(root) || typeof root.cwd !== 'string') {
    ctx.diags.error(
      'format/scope-shape',
      1,
      last,
      'scope.json must be {"cwd": "<absolute path>"}; without a cwd the imported project has no scope.',
    );
    return base;
  }
  base.cwd = root.cwd;
  const compact = JSON.stringify({ cwd: root.cwd });
  base.compact = ctx.text === compact || ctx.text === `${compact}\n`;
  if (!isAbsolutePath(root.cwd)) ctx.diags.error('format/scope-shape', 1, last, `The cwd "${root.cwd}" is not an absolute path.`);
  const extra = Object.keys(root).filter((k) => k !== 'cwd');
  if (extra.length > 0)
    ctx.diags.info(
      'format/scope-shape',
      1,
      last,
      `Codex writes only "cwd"; ${extra.map((k) => `"${k}"`).join(', ')} would be dropped at the next import.`,
    );
  if (!base.compact)
    ctx.diags.info(
      'format/scope-compact',
      1,
      last,
      `Codex writes scope.json compactly as ${compact}; any other spelling counts as a change and triggers a re-import.`,
    );
  return base;
}
