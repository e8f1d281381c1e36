// The import wizard's e2e helpers: a fixture Claude home, and the wizard's steps reached and checked from the keyboard.
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const SECRET = `ghp_${'A1b2C3d4E5'.repeat(3)}f6G7h8`;

export interface ClaudeFixture {
  dir: string;
  claudeHome: string;
  key: string;
  /** The cwd the newest session records, and another real folder the test types instead. */
  cwd: string;
  editedCwd: string;
  files: Record<string, string>;
}

export const memoryIndex = '# Memory index\n\n- [Role](user_role.md): who I am\n- [Tests](feedback_tests.md): how to run tests\n';
const userRole =
  '---\nname: user role\ndescription: The person is a backend developer 👩‍💻\ntype: user\n---\n\nBackend developer; prefers **short** answers. Ünïcödé is fine.\n';
export const feedbackTests = `---\nname: feedback tests\ndescription: How to run the tests\ntype: feedback\n---\n\nRun \`npm test\` before pushing.\n\n**Why:** CI is slow.\n\nMirror login uses ${SECRET} for pushes.\n`;
const orphan = '---\nname: old notes\ntype: project\n---\n\nAn orphan topic file that MEMORY.md does not link.\n';

/** A Claude home with one project: index, two linked topic files (one with a GitHub token), an orphan, a binary file and a session with a cwd. */
export async function makeClaudeHome(sources: string): Promise<ClaudeFixture> {
  const dir = await mkdtemp(join(sources, 'memory-studio-import-e2e-'));
  const claudeHome = join(dir, 'claude-home');
  const cwd = join(dir, 'work', 'my idea');
  const editedCwd = join(dir, 'work', 'my-idea');
  await mkdir(cwd, { recursive: true });
  await mkdir(editedCwd, { recursive: true });
  // Claude's own (lossy) encoding of the path: every character outside [A-Za-z0-9] becomes '-'.
  const key = cwd.replace(/[^A-Za-z0-9]/g, '-');
  const project = join(claudeHome, 'projects', key);
  const memory = join(project, 'memory');
  await mkdir(memory, { recursive: true });
  const files = { 'MEMORY.md': memoryIndex, 'user_role.md': userRole, 'feedback_tests.md': feedbackTests, 'notes_orphan.md': orphan };
  for (const [name, text] of Object.entries(files)) await writeFile(join(memory, name), text);
  await writeFile(join(memory, 'diagram.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
  const older = join(project, 'a-older.jsonl');
  await writeFile(older, `${JSON.stringify({ type: 'summary', cwd: '/somewhere/else' })}\n`);
  await utimes(older, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  await writeFile(
    join(project, 'b-newest.jsonl'),
    `${JSON.stringify({ type: 'user', message: 'hi' })}\n${JSON.stringify({ type: 'user', cwd })}\n`,
  );
  return { dir, claudeHome, key, cwd, editedCwd, files };
}

/**
 * The wizard is on `step`, its heading says so and holds the focus; on Review the heading hands the focus over to the
 * proposal (its first undecided hunk) once it is shown.
 */
export async function expectStep(page: Page, step: string, title: RegExp): Promise<void> {
  await expect(page.getByTestId('import-wizard')).toHaveAttribute('data-step', step);
  const heading = page.getByTestId('wizard-heading');
  await expect(heading).toHaveText(title);
  if (step !== 'review') return expect(heading).toBeFocused();
  const where = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active?.matches('[data-testid="wizard-heading"]') || !!active?.closest('[data-testid="step-review"]');
    });
  await expect.poll(where).toBe(true);
}

/** Alt+→ once Next is allowed (while the plan is being worked out, Alt+→ does nothing, as the disabled button). */
export async function keyNext(page: Page): Promise<void> {
  await expect(page.getByTestId('wizard-next')).toBeEnabled();
  await page.keyboard.press('Alt+ArrowRight');
}

export async function openImport(page: Page): Promise<void> {
  await page.keyboard.press('Alt+8');
  await expect(page.locator('[data-testid="view-tab"][data-view="import"]')).toHaveAttribute('aria-selected', 'true');
}

/** From the page's start to the Secrets step with the keyboard: Import, the Claude home typed, then Next three times. */
export async function toSecretsStep(page: Page, claudeHome: string, key: string): Promise<void> {
  await openImport(page);
  await page.getByTestId('source-home-input').fill(claudeHome);
  await page.getByTestId('source-home-input').press('Enter');
  await expect(page.locator(`[data-testid="found-project"][data-key="${key}"]`)).toBeVisible();
  for (const step of ['projects', 'files', 'secrets']) {
    await keyNext(page);
    await expect(page.getByTestId('import-wizard')).toHaveAttribute('data-step', step);
  }
}
