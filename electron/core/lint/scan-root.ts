// `memory-studio secrets`: every Markdown file of a memory root through the secret engine, findings masked.
import type { MemoryVersion } from '../../../shared/domain';
import { listMemoryRoot, createRootReader } from '../codex/workspace';
import { scanSecrets } from './secrets';

const READ_BATCH = 64;

export interface RootSecretFinding {
  path: string;
  rule: string;
  severity: string;
  line: number;
  column: number;
  /** The first four characters and `****`: never the secret. */
  preview: string;
}

export interface RootSecretScan {
  version: MemoryVersion;
  root: string;
  scannedFiles: number;
  findings: RootSecretFinding[];
  /** Files that could not be read, with why (they were not scanned). */
  unreadable: Array<{ path: string; reason: string }>;
}

/** Scans every Markdown file of `root` (never `.git/`, never through a symlink). */
export async function scanRootSecrets(root: string, version: MemoryVersion): Promise<RootSecretScan> {
  const list = await listMemoryRoot(root, version);
  const read = createRootReader(root, version);
  const markdown = list.files.filter((f) => !f.symlink && f.path.endsWith('.md'));
  const findings: RootSecretFinding[] = [];
  const unreadable: RootSecretScan['unreadable'] = [];
  // A FIFO, socket or device with a Markdown name is not read (it would never end), and is said, not passed over.
  for (const d of list.diagnostics)
    if (d.rule === 'workspace/special-file' && d.path?.endsWith('.md'))
      unreadable.push({ path: d.path, reason: 'it is not a regular file (a socket, device or pipe), so it is not read' });
  for (let i = 0; i < markdown.length; i += READ_BATCH) {
    const batch = markdown.slice(i, i + READ_BATCH);
    const texts = await Promise.all(
      batch.map((file) =>
        read(file).then(
          (c) => ({ file, text: c.content }),
          (error: Error) => ({ file, text: error }),
        ),
      ),
    );
    for (const { file, text } of texts) {
      if (text instanceof Error) {
        unreadable.push({ path: file.path, reason: text.message });
        continue;
      }
      for (const f of scanSecrets(text))
        findings.push({ path: file.path, rule: f.rule, severity: f.severity, line: f.line, column: f.startColumn, preview: f.preview });
    }
  }
  return { version, root, scannedFiles: markdown.length, findings, unreadable };
}
