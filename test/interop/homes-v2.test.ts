// Homes made by real Codex on its default config (v2): Memory Studio reports what Codex uses, byte for byte.
import { afterAll, beforeAll, it } from 'vitest';
import { FakeProvider } from './support/fake-provider';
import { checkHomeAgainstCodex, consolidatedHome } from './support/scenario';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

it('a default config (no memories.version) is v2: version, layout, phase-1 eligibility and the injected summary match real Codex', async () => {
  const made = await consolidatedHome(provider, 'default');
  try {
    await checkHomeAgainstCodex(made, 'v2', 'default');
  } finally {
    await made.home.remove();
  }
});
