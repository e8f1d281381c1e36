// `secrets`: the secret engine over every Markdown file of each root asked for (what lint reports as secrets/*).
import type { HomeInfo, MemoryVersion } from '../../../../shared/domain';
import { scanRootSecrets } from '../../lint/scan-root';
import { StudioFailure } from '../../platform/errors';

export async function scanHomeSecrets(
  home: HomeInfo,
  versions: readonly MemoryVersion[],
): Promise<Array<Awaited<ReturnType<typeof scanRootSecrets>>>> {
  const scans = [];
  for (const version of versions) {
    const root = home.roots.find((r) => r.version === version);
    if (!root) throw new StudioFailure('NotFound', `${home.codexHome} has no ${version} memory folder.`);
    scans.push(await scanRootSecrets(root.path, version));
  }
  return scans;
}
