// `memory-studio search QUERY`: ranked full-text search over the home's index, as the app's search view runs it.
import { parseArgs } from 'node:util';
import { fileKinds } from '../../shared/file-kinds';
import type { FileKind } from '../../shared/domain';
import type { SearchHit } from '../../shared/search';
import { searchHome } from '../core/service/use-cases/search';
import { CliUsageError } from './cli-errors';
import { openCliIndex, parseVersion } from './cli-index';
import { cliEnv, stdoutIsTTY } from './cli-io';

const BOLD = '\u001b[1m';
const RESET = '\u001b[0m';

function emphasised(hit: SearchHit, color: boolean): string {
  if (!color) return hit.snippet;
  let out = '';
  let at = 0;
  for (const [start, end] of hit.highlights) {
    out += `${hit.snippet.slice(at, start)}${BOLD}${hit.snippet.slice(start, end)}${RESET}`;
    at = end;
  }
  return out + hit.snippet.slice(at);
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new CliUsageError(`--limit must be a whole number from 1 to 500, not "${value}".`);
  return limit;
}

function parseKind(value: string | undefined): FileKind | undefined {
  if (value === undefined) return undefined;
  if (!(fileKinds as readonly string[]).includes(value))
    throw new CliUsageError(`--kind must be one of ${fileKinds.join(', ')}, not "${value}".`);
  return value as FileKind;
}

/** Exit 0 with hits, 1 without (as grep and rg do), 2 on a usage error. */
export async function searchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'codex-home': { type: 'string' },
      'data-dir': { type: 'string' },
      version: { type: 'string' },
      kind: { type: 'string' },
      project: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const query = positionals.join(' ').trim();
  if (!query)
    throw new CliUsageError(
      'search needs a query: memory-studio search QUERY [--version v1|v2] [--kind K] [--project P] [--limit N] [--json]',
    );
  const input = {
    query,
    version: parseVersion(values.version),
    kind: parseKind(values.kind),
    project: values.project,
    limit: parseLimit(values.limit),
  };
  const started = performance.now();
  const cli = await openCliIndex(values, { parts: 'roots' });
  try {
    if (!cli.indexed) {
      console.error('Search needs the index, which is off (see above); inspect and lint still work without it.');
      return 1;
    }
    // The same search as the search.query channel; the CLI ranks by BM25 alone (hybrid search, with an embeddings
    // endpoint, is the app's, serve's and the MCP server's).
    const result = await searchHome(cli.indexed, input, { dataDir: cli.dataDir, env: cliEnv(), hybrid: false, started });
    const hits = result.hits;
    const total = result.total;
    if (values.json) console.log(JSON.stringify(result, null, 2));
    else {
      const color = stdoutIsTTY();
      for (const hit of hits)
        console.log(`${hit.version} ${hit.relPath}:${hit.line}  (${hit.score.toFixed(2)})  ${emphasised(hit, color)}`);
      console.log(
        hits.length === 0
          ? `No matches for "${query}".`
          : `${hits.length} of ${total >= 10_000 ? 'over 10,000' : total} matching passages.`,
      );
    }
    return hits.length > 0 ? 0 : 1;
  } finally {
    cli.close();
  }
}
