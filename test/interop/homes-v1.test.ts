// Homes made by real Codex with memories.version = "v1", alone and beside an earlier v2 root.
import { afterAll, beforeAll, it } from 'vitest';
import { FakeProvider } from './support/fake-provider';
import { checkHomeAgainstCodex, consolidatedHome } from './support/scenario';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

it('v1 configured: MEMORY.md home, layout, eligibility and the injected summary (whole and truncated) match real Codex', async () => {
  const made = await consolidatedHome(provider, 'v1');
  try {
    await checkHomeAgainstCodex(made, 'v1', 'config');
  } finally {
    await made.home.remove();
  }
});

it('both roots present (v2 first, then v1 configured): the configured root is the one Codex uses and Memory Studio reports', async () => {
  const made = await consolidatedHome(provider, 'v1', 'default');
  try {
    await checkHomeAgainstCodex(made, 'v1', 'config');
  } finally {
    await made.home.remove();
  }
});
