// The last answers of each index connection, by query and filters: the same search again (the palette and the search
// view asking alike, a page refetching, a person going back to a query) answers without the FTS query, its BM25 over
// every match and the snippets. Kept per generation of the index, which every write to it bumps in its transaction:
// a changed file is in the next answer.
import type Database from 'better-sqlite3';
import type { SearchHit, SearchInput } from '../../../shared/search';
import { generationOf } from './write';

/** Answers kept per connection (a few dozen kilobytes each). */
const KEPT = 64;

interface Answer {
  hits: SearchHit[];
  total: number;
}

const caches = new WeakMap<Database.Database, { generation: number; answers: Map<string, Answer> }>();

const keyOf = (input: SearchInput, limit: number): string =>
  JSON.stringify([input.query, input.version ?? null, input.kind ?? null, input.project ?? null, limit]);

/** Frozen, so no caller can change what the next one is answered (hits are passed on as they are). */
function frozen(answer: Answer): Answer {
  for (const hit of answer.hits) Object.freeze(Object.freeze(hit).highlights.map((range) => Object.freeze(range)));
  return Object.freeze({ hits: Object.freeze(answer.hits) as SearchHit[], total: answer.total });
}

/** The answer kept for `input` at the index's current generation, or `search()`'s, then kept (the least recent dropped). */
export function cachedAnswer(db: Database.Database, input: SearchInput, limit: number, search: () => Answer): Answer {
  const generation = generationOf(db);
  let cache = caches.get(db);
  if (cache?.generation !== generation) caches.set(db, (cache = { generation, answers: new Map() }));
  const key = keyOf(input, limit);
  const kept = cache.answers.get(key);
  cache.answers.delete(key);
  const answer = kept ?? frozen(search());
  cache.answers.set(key, answer);
  if (cache.answers.size > KEPT) cache.answers.delete(cache.answers.keys().next().value as string);
  return answer;
}
