// `parse FILE`: one memory file parsed as the app parses it, refused (not parsed leniently) when it is too big, binary
// or not UTF-8, as the app refuses it; or a session rollout, streamed line by line.
import type { ParsedKind } from '../../../../shared/formats';
import { ANALYSIS_CAP_BYTES } from '../../codex/workspace';
import { outlineOf } from '../../formats';
import { parseMemoryBytes } from '../../formats/read-file';
import { StudioFailure } from '../../platform/errors';
import { readRegularFile } from '../../platform/regular-file';
import { decodeUtf8Strict, findInvalidUtf8 } from '../../platform/utf8';

export { parseSessionRollout } from '../../sessions';

export async function parseMemoryFile(path: string, kind: ParsedKind | undefined): Promise<ReturnType<typeof outlineOf>> {
  const tooBig = (size: number) =>
    new StudioFailure('Unsupported', `${path} is ${size} bytes, more than the ${ANALYSIS_CAP_BYTES} bytes Memory Studio parses.`, { path });
  const { bytes } = await readRegularFile(path, path, ANALYSIS_CAP_BYTES, tooBig);
  if (bytes.includes(0))
    throw new StudioFailure('Unsupported', `${path} looks binary (it contains NUL bytes), so it is not parsed.`, {
      path,
      hint: 'Memory files are Markdown text.',
    });
  if (decodeUtf8Strict(bytes) === null) {
    const problem = findInvalidUtf8(bytes);
    throw new StudioFailure(
      'Invalid',
      `${path} is not valid UTF-8 (first bad byte at offset ${problem?.byteOffset ?? '?'}, line ${problem?.line ?? '?'}).`,
      {
        path,
        hint: 'Codex writes UTF-8; re-save the file as UTF-8.',
      },
    );
  }
  return outlineOf(parseMemoryBytes(bytes, { path, kind }));
}
