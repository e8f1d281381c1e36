// The index's o200k counts, for a worker that counts a budget: its own connection, and counting goes on without it.
import { countO200kTokens } from '../budget/o200k';
import { cachedTokenCounter } from './read';
import { threadConnection } from './tasks';

export function indexTokenCounter(indexPath: string): (text: string) => number {
  let counter: ((text: string) => number) | null = null;
  try {
    counter = cachedTokenCounter(threadConnection(indexPath));
  } catch {
    counter = null; // No index here (off, damaged): count without remembering.
  }
  return (text) => {
    try {
      return (counter ?? countO200kTokens)(text);
    } catch {
      return countO200kTokens(text);
    }
  };
}
