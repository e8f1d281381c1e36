// The review and the Consolidate preview show what core found: secret lines marked in the line diff, a block holding
// one marked in the outline (whose Accept leaves an added secret to its own decision, and takes a redaction with the
// rest), inputs holding one marked.
import { randomBytes } from 'node:crypto';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { computeFileBlocks, computeReviewHunks } from '../../electron/core/review/review-hunks';
import { inputSecret } from '../../electron/core/consolidate/preview-secrets';
import { BlockOutline } from '../../renderer/src/review/block-outline';
import { diffRows } from '../../renderer/src/review/diff-rows';
import { HunkView } from '../../renderer/src/review/hunk-view';
import { reviewItems } from '../../renderer/src/review/review-items';
import { InputPreviewView } from '../../renderer/src/consolidate/input-preview';
import { FileBlocksSchema, HunkSchema, type Hunk } from '../../shared/review';
import { InputPreviewSchema, type InputPreview } from '../../shared/consolidate';

// jsdom has no layout and no ResizeObserver: the windowed lists measure with it, and here nothing ever resizes.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

// Assembled at run time: the repository holds no token-shaped literal.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const KEY = `AKIA${Array.from(randomBytes(16), (b) => B32[b % 32]).join('')}`;

const group = (title: string, knowledge: string[]) =>
  [
    `# Task Group: ${title}`,
    '',
    `scope: ${title} work`,
    'applies_to: cwd=/src/app; reuse_rule=same repo',
    '',
    '## Reusable knowledge',
    '',
    ...knowledge.map((k) => `- ${k}`),
    '',
  ].join('\n');
const BEFORE = group('webapp checkout', ['uses pnpm']);
const AFTER = `${group('infra deploys', ['staging first', `staging uses key ${KEY}`, 'rotate monthly'])}\n${BEFORE}`;
const FILE = { relPath: 'MEMORY.md', version: 'v1' as const };

/** Core's hunks and blocks for the pair, as the contract carries them. */
function review() {
  const hunks = computeReviewHunks(BEFORE, AFTER, FILE).map((h) => HunkSchema.parse(h));
  const blocks = FileBlocksSchema.parse(computeFileBlocks(BEFORE, AFTER, FILE, hunks));
  return { hunks, blocks, items: reviewItems(hunks, blocks) };
}

describe('secret marks in the review', () => {
  it('marks the line core found, with what it holds, and the item that holds it', () => {
    const { hunks, items } = review();
    const secretHunk = hunks.find((h) => (h.secrets ?? []).length > 0);
    expect(diffRows(secretHunk!).map((r) => r.secret)).toEqual(['an AWS access key id']);
    render(
      <HunkView
        items={items.items}
        decisions={{}}
        active={0}
        readOnly={false}
        onActivate={() => undefined}
        onDecide={() => undefined}
        onResolve={() => undefined}
        onEditConflict={() => undefined}
        empty="none"
      />,
    );
    const marked = screen.getAllByTestId('secret-line');
    expect(marked).toHaveLength(1);
    expect(marked[0]?.textContent).toContain(`staging uses key ${KEY}`);
    expect(marked[0]?.textContent).toContain('secret: an AWS access key id');
    const item = screen.getAllByTestId('hunk-item').find((el) => el.dataset.secret === 'true');
    expect(item && within(item).getByTestId('hunk-secret').textContent).toBe('holds a secret');
    expect(screen.getAllByTestId('hunk-item').filter((el) => el.dataset.secret === 'true')).toHaveLength(1);
  });

  it("marks the block that holds one, and the block's Accept leaves the secret line to its own decision", () => {
    const { hunks, blocks, items } = review();
    const onDecide = vi.fn();
    render(
      <BlockOutline
        blocks={blocks}
        loading={false}
        items={items}
        decisions={{}}
        activeBlock={null}
        readOnly={false}
        onShow={() => undefined}
        onDecide={onDecide}
      />,
    );
    const row = screen.getAllByTestId('block-row').find((el) => el.dataset.title === 'infra deploys') as HTMLElement;
    expect(within(row).getByTestId('block-secret').textContent).toBe('secret');
    fireEvent.click(within(row).getByTestId('accept-block'));
    const secretId = hunks.find((h) => (h.secrets ?? []).length > 0)?.id;
    const [ids, decision] = onDecide.mock.calls[0] as [string[], string];
    expect(decision).toBe('accept');
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).not.toContain(secretId);
    fireEvent.click(within(row).getByTestId('reject-block'));
    expect((onDecide.mock.calls[1] as [string[]])[0]).toContain(secretId);
    const other = screen.getAllByTestId('block-row').find((el) => el.dataset.title === 'webapp checkout') as HTMLElement | undefined;
    if (other) expect(within(other).queryByTestId('block-secret')).toBeNull();
  });
});

describe('a block showing a secret it does not add', () => {
  it('is marked, and its Accept takes the redaction with the rest of the block', () => {
    // A redaction as the review gets it from a stored proposal: the removed key line marked, nothing added is a secret.
    const withKey = group('infra deploys', ['staging first', `staging uses key ${KEY}`, 'rotate monthly']);
    const redacted = withKey.replace(KEY, '[REDACTED_SECRET]').replace('rotate monthly', 'rotate monthly, on the 1st');
    const before = `${withKey}\n${BEFORE}`;
    const after = `${redacted}\n${BEFORE}`;
    const hunks = computeReviewHunks(before, after, FILE).map((h) => HunkSchema.parse(h));
    const redaction = hunks.find((h) => (h.secrets ?? []).length > 0) as Hunk;
    expect(redaction.secrets?.map((s) => redaction.lines[s.index]?.[0])).toEqual(['-']);
    const blocks = FileBlocksSchema.parse(computeFileBlocks(before, after, FILE, hunks));
    const onDecide = vi.fn();
    render(
      <BlockOutline
        blocks={blocks}
        loading={false}
        items={reviewItems(hunks, blocks)}
        decisions={{}}
        activeBlock={null}
        readOnly={false}
        onShow={() => undefined}
        onDecide={onDecide}
      />,
    );
    const row = screen.getAllByTestId('block-row').find((el) => el.dataset.title === 'infra deploys') as HTMLElement;
    expect(within(row).getByTestId('block-secret').textContent).toBe('secret');
    fireEvent.click(within(row).getByTestId('accept-block'));
    expect((onDecide.mock.calls[0] as [string[]])[0]).toContain(redaction.id);
  });
});

describe('secret marks in the Consolidate preview', () => {
  it('lists and marks the note core found a secret in', () => {
    const path = 'extensions/ad_hoc/notes/2026-03-04T09-00-00-deploy.md';
    const found = inputSecret(path, `# Deploy\n\n- key ${KEY}\n`);
    const preview: InputPreview = InputPreviewSchema.parse({
      version: 'v1',
      root: '/home/dana/.codex/memories',
      engine: 'builtin',
      model: null,
      selection: { rows: [], eligible: 0, limit: 256, maxUnusedDays: 30, excludedNotEnabled: 0, bytes: 0, added: [], removed: [] },
      adHocNotes: { count: 2, bytes: 200, paths: [path, 'extensions/ad_hoc/notes/2026-03-04T10-00-00-tabs.md'] },
      extensionResources: { count: 0, bytes: 0, paths: [], expired: [] },
      imports: { count: 0, bytes: 0, paths: [], projects: [] },
      handEdits: { hasBaseline: true, files: [] },
      tokens: { in: 100, out: 10 },
      secrets: [found],
      lease: { state: 'free', holder: null, leaseUntil: null, cooldownUntil: null, retryAt: null, status: null, message: 'Free.' },
      notes: [],
    });
    render(<InputPreviewView preview={preview} />);
    const notice = screen.getByTestId('preview-secrets');
    expect(notice.textContent).toContain(path);
    expect(notice.textContent).toContain('line 3: an AWS access key id');
    expect(notice.textContent).not.toContain(KEY);
    const notes = within(screen.getByTestId('input-notes'));
    expect(notes.getAllByTestId('secret-mark')).toHaveLength(1);
    expect(notes.getByTestId('secret-mark').closest('li')?.textContent).toContain(path);
  });
});
