// The demo home: generated on request (`demo-home DIR`) or, for `start --demo`, once into the data folder. The
// generator loads only when a home is generated.
import type { generateHome as Generate } from '../../demo-home';

export { ensureDemoHome } from '../../handlers/demo-home-choice';

export async function generateDemoHome(...args: Parameters<typeof Generate>): ReturnType<typeof Generate> {
  const { generateHome } = await import('../../demo-home/index.js');
  return generateHome(...args);
}
