// End to end for the Import wizard: a fixture Claude home through every step (keyboard and mouse), a reload and resume, then the bytes on disk.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, keepScreenshot, ready, repoRoot, test } from './fixtures';
import { expectStep, feedbackTests, keyNext, makeClaudeHome, memoryIndex, openImport, SECRET, toSecretsStep } from './import-helpers';

/** Every button, input and select in the wizard has a name a screen reader can read. */
async function expectNamedControls(page: Page): Promise<void> {
  const unnamed = await page.getByTestId('import-wizard').evaluate((root) =>
    Array.from(root.querySelectorAll('button, input, select, textarea'))
      .filter((element) => {
        const el = element as HTMLInputElement;
        const text =
          (el.getAttribute('aria-label') ?? '') +
          (el.labels ? Array.from(el.labels, (l) => l.textContent ?? '').join('') : '') +
          (el.tagName === 'BUTTON' ? (el.textContent ?? '') : '');
        const labelledBy = el.getAttribute('aria-labelledby');
        return text.trim() === '' && !labelledBy;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(unnamed).toEqual([]);
}

test('import a Claude home through every wizard step, resume after a reload, and the files land byte for byte', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const fixture = await makeClaudeHome(studio.sources);
  try {
    await ready(page, studio.url);
    await openImport(page);

    // 1. Sources: type the folder (Enter scans), see what was found and what was skipped.
    await expectStep(page, 'sources', /Step 1 of 8: Sources/);
    await expect(page.locator('input[data-source="claude"]')).toBeChecked();
    await page.getByTestId('source-home-input').fill(fixture.claudeHome);
    await page.getByTestId('source-home-input').press('Enter');
    const found = page.locator(`[data-testid="found-project"][data-key="${fixture.key}"]`);
    await expect(found).toBeVisible();
    await expect(found.locator('td').nth(1)).toHaveText('5');
    await expect(page.locator('[data-testid="skipped-entry"][data-code="binary"]')).toContainText('diagram.md');
    await expectNamedControls(page);
    await keepScreenshot(page, testInfo, 'import-sources');
    await keyNext(page);

    // 2. Projects: the cwd comes from the newest session; edit it (Enter commits), the lossy encoding is explained.
    await expectStep(page, 'projects', /Step 2 of 8: Projects/);
    await expect(page.getByTestId('key-encoding-note')).toContainText('cannot be decoded reliably');
    const row = page.locator(`[data-testid="project-row"][data-key="${fixture.key}"]`);
    await expect(row.getByTestId('project-include')).toBeChecked();
    await expect(row.getByTestId('project-cwd')).toHaveValue(fixture.cwd);
    // A relative folder is refused inline; the step (and its plan) stays.
    await row.getByTestId('project-cwd').fill('relative/dir');
    await row.getByTestId('project-cwd').press('Enter');
    await expect(row.getByTestId('project-cwd-error')).toContainText('not an absolute path');
    await expect(page.getByTestId('projects-table')).toBeVisible();
    // A valid path is taken once typing settles: no Enter or Tab needed before Next follows it.
    await row.getByTestId('project-cwd').fill(fixture.editedCwd);
    await expect(row).toContainText('typed by you');
    await expect(row.getByTestId('project-cwd-error')).toHaveCount(0);
    await expectNamedControls(page);
    await keepScreenshot(page, testInfo, 'import-projects');
    await page.getByTestId('wizard-next').click();

    // 3. Files: chips, front matter, rendered and raw previews; leave the orphan out.
    await expectStep(page, 'files', /Step 3 of 8: Files/);
    const file = (name: string) => page.locator(`[data-testid="import-file"][data-path="${name}"]`);
    await expect(file('MEMORY.md').getByTestId('kind-chip')).toHaveText('index');
    await expect(file('user_role.md').getByTestId('type-chip')).toHaveText('user');
    await expect(file('feedback_tests.md').getByTestId('type-chip')).toHaveText('feedback');
    await expect(file('notes_orphan.md').getByTestId('kind-chip')).toHaveText('orphan');
    await file('user_role.md').getByRole('button', { name: 'Preview user_role.md' }).click();
    const preview = page.getByTestId('file-preview');
    await expect(preview).toHaveAttribute('data-path', 'user_role.md');
    await expect(preview.getByTestId('front-matter')).toContainText('The person is a backend developer 👩‍💻');
    await expect(preview.locator('.markdown-preview strong')).toHaveText('short');
    await preview.getByTestId('preview-raw').click();
    await expect(preview.getByTestId('raw-preview')).toContainText('name: user role');
    await expect(preview.getByTestId('raw-preview')).toContainText('prefers **short** answers');
    await file('notes_orphan.md').getByTestId('file-include').uncheck();
    await expect(file('notes_orphan.md').getByTestId('file-include')).not.toBeChecked();
    await expectNamedControls(page);
    await keepScreenshot(page, testInfo, 'import-files-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await keepScreenshot(page, testInfo, 'import-files-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Close and reopen in the middle: the draft offers to resume at Files, with the choices kept.
    await expect(page.getByTestId('draft-status')).toHaveAttribute('data-draft', 'saved');
    await page.reload();
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await openImport(page);
    await expect(page.getByTestId('import-resume')).toContainText('Resume import from Files?');
    await expect(page.getByTestId('resume-import')).toBeFocused();
    await page.keyboard.press('Enter');
    await expectStep(page, 'files', /Step 3 of 8: Files/);
    await expect(file('notes_orphan.md').getByTestId('file-include')).not.toBeChecked();
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    // Enter on the focused heading = Next.
    await page.keyboard.press('Enter');

    // 4. Secrets: Next is blocked with the reason until the finding is resolved.
    await expectStep(page, 'secrets', /Step 4 of 8: Secrets/);
    const finding = page.getByTestId('secret-finding');
    await expect(finding).toHaveCount(1);
    await expect(finding).toHaveAttribute('data-line', '11');
    await expect(finding).not.toContainText(SECRET);
    await expect(page.getByTestId('wizard-next')).toBeDisabled();
    await expect(page.getByTestId('wizard-blocked')).toContainText('feedback_tests.md');
    await keepScreenshot(page, testInfo, 'import-secrets');
    // Alt+← goes back (the browser's own history Back never fires), Alt+→ returns; Alt+→ does nothing while Next is blocked.
    await page.keyboard.press('Alt+ArrowRight');
    await expect(page.getByTestId('import-wizard')).toHaveAttribute('data-step', 'secrets');
    await page.keyboard.press('Alt+ArrowLeft');
    await expectStep(page, 'files', /Step 3 of 8: Files/);
    await keyNext(page);
    await expectStep(page, 'secrets', /Step 4 of 8: Secrets/);
    await finding.getByText('Redact').click();
    await expect(finding).toHaveAttribute('data-action', 'redact');
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await expectNamedControls(page);
    await keyNext(page);

    // 5. Target: Codex's rule and the exact paths.
    await expectStep(page, 'target', /Step 5 of 8: Target/);
    await expect(page.getByTestId('target-rule')).toBeVisible();
    const scopePath = join(studio.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', fixture.key, 'scope.json');
    await expect(page.locator(`[data-testid="target-write"][data-version="v1"][data-path$="/${fixture.key}/scope.json"]`)).toContainText(
      scopePath,
    );
    const targetVersions = await page
      .getByTestId('import-target')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-version') ?? ''));
    expect(targetVersions).toContain('v1');
    await keepScreenshot(page, testInfo, 'import-target');
    await page.getByTestId('wizard-next').click();

    // 6. Review: the standard diff review of the proposal, embedded; accept everything.
    await expectStep(page, 'review', /Step 6 of 8: Review/);
    const detail = page.getByTestId('proposal-detail');
    await expect(detail).toHaveAttribute('data-status', 'pending');
    await expect(page.getByTestId('proposal-file').first()).toBeVisible();
    await expect(page.getByTestId('wizard-next')).toBeDisabled();
    await page.getByTestId('accept-all').click();
    await expect(page.getByTestId('result-status')).toHaveAttribute('data-stale', 'false');
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await keepScreenshot(page, testInfo, 'import-review');
    await keyNext(page);

    // 7. Apply: what it writes where, then the standard Apply.
    await expectStep(page, 'apply', /Step 7 of 8: Apply/);
    await expect(page.locator(`[data-testid="apply-file"][data-path$="/${fixture.key}/feedback_tests.md"]`).first()).toBeVisible();
    await expect(page.locator(`[data-testid="apply-file"][data-path$="notes_orphan.md"]`)).toHaveCount(0);
    await keepScreenshot(page, testInfo, 'import-apply');
    await page.getByTestId('apply-button').click();

    // 8. Done: what changed per root, the enqueue, and "Consolidate now".
    await expectStep(page, 'done', /Step 8 of 8: Done/);
    await expect(page.locator('[data-testid="done-root"][data-version="v1"]')).toContainText('scope.json');
    await expect(page.getByTestId('consolidation-enqueued')).toBeVisible();
    await keepScreenshot(page, testInfo, 'import-done');

    for (const version of targetVersions) {
      const root = join(studio.codexHome, version === 'v1' ? 'memories' : 'memories_v2', 'extensions', 'external_agent_import');
      const resources = join(root, 'resources', fixture.key);
      expect(await readFile(join(resources, 'scope.json'), 'utf8')).toBe(JSON.stringify({ cwd: fixture.editedCwd }));
      for (const name of ['MEMORY.md', 'user_role.md'])
        expect(await readFile(join(resources, name))).toEqual(Buffer.from(fixture.files[name] ?? ''));
      const redacted = await readFile(join(resources, 'feedback_tests.md'), 'utf8');
      expect(redacted).toBe(feedbackTests.replace(SECRET, '[REDACTED_SECRET]'));
      await expect(readFile(join(resources, 'notes_orphan.md'))).rejects.toThrow();
      await expect(readFile(join(resources, 'diagram.md'))).rejects.toThrow();
      expect(await readFile(join(root, 'instructions.md'), 'utf8')).toContain('scope.json');
    }

    await page.getByTestId('consolidate-now').click();
    await expect(page.locator('[data-testid="view-tab"][data-view="consolidate"]')).toHaveAttribute('aria-selected', 'true');
  } finally {
    await rm(fixture.dir, { recursive: true, force: true });
  }
});

const styleRule = '---\ndescription: House style\nglobs: "*.ts"\nalwaysApply: true\n---\n\nUse named exports only.\n';
const legacyRules = 'Prefer small functions.\n';

/** Walks a Cursor import of one repository's rules from Sources to Target with the mouse; returns the project key. */
async function cursorToTarget(page: Page, paths: { cursorHome: string; repo: string; stateDb: string }): Promise<string> {
  await expectStep(page, 'sources', /Step 1 of 8: Sources/);
  await page.locator('label', { has: page.locator('input[data-source="cursor"]') }).click();
  await page.getByTestId('source-home-input').fill(paths.cursorHome);
  await page.getByRole('button', { name: /^Scan:/ }).click();
  await page.getByTestId('repo-input').fill(paths.repo);
  await page.getByRole('button', { name: 'Add repository' }).click();
  await expect(page.getByTestId('repo-item')).toHaveText(new RegExp(paths.repo));
  const stateDb = page.getByRole('textbox', { name: /state\.vscdb/ });
  await stateDb.fill(paths.stateDb);
  await stateDb.press('Enter');
  const found = page.locator('[data-testid="found-project"][data-key^="cursor-rules-"]');
  await expect(found).toBeVisible();
  const key = (await found.getAttribute('data-key')) ?? '';
  await expect(page.locator('[data-testid="skipped-entry"]').filter({ hasText: paths.stateDb })).toBeVisible();
  await page.getByTestId('wizard-next').click();

  await expectStep(page, 'projects', /Step 2 of 8: Projects/);
  await expect(page.locator(`[data-testid="project-row"][data-key="${key}"]`)).toContainText('the repository you picked');
  await page.getByTestId('wizard-next').click();
  await expectStep(page, 'files', /Step 3 of 8: Files/);
  await expect(page.locator('[data-testid="import-file"][data-path="rules/style.mdc"] [data-testid="kind-chip"]')).toHaveText('rule');
  await page.getByRole('button', { name: 'Preview rules/style.mdc' }).click();
  const preview = page.getByTestId('file-preview');
  await expect(preview.getByTestId('front-matter')).toContainText('House style');
  await expect(preview.locator('.markdown-preview')).toHaveText('Use named exports only.');
  await expect(preview).toContainText('A provenance header');
  await page.getByTestId('wizard-next').click();
  await expectStep(page, 'secrets', /Step 4 of 8: Secrets/);
  await expect(page.getByTestId('no-secrets')).toBeVisible();
  await page.getByTestId('wizard-next').click();
  await expectStep(page, 'target', /Step 5 of 8: Target/);
  return key;
}

test('import Cursor project rules with the mouse; the same import again has nothing to import', async ({ guardedPage: page, studio }) => {
  const dir = await mkdtemp(join(studio.sources, 'memory-studio-import-cursor-e2e-'));
  try {
    const repo = join(dir, 'repo');
    await mkdir(join(repo, '.cursor', 'rules'), { recursive: true });
    await writeFile(join(repo, '.cursor', 'rules', 'style.mdc'), styleRule);
    await writeFile(join(repo, '.cursorrules'), legacyRules);
    const paths = { cursorHome: join(dir, 'cursor-home'), repo, stateDb: join(dir, 'no-cursor', 'state.vscdb') };
    await mkdir(paths.cursorHome, { recursive: true });
    await ready(page, studio.url);
    await page.locator('[data-testid="view-tab"][data-view="import"]').click();

    const key = await cursorToTarget(page, paths);
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'review', /Step 6 of 8: Review/);
    await page.getByTestId('accept-all').click();
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'apply', /Step 7 of 8: Apply/);
    await page.getByTestId('apply-button').click();
    await expectStep(page, 'done', /Step 8 of 8: Done/);

    const resources = join(studio.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', key);
    expect(JSON.parse(await readFile(join(resources, 'scope.json'), 'utf8'))).toEqual({ cwd: repo });
    const style = await readFile(join(resources, 'rules', 'style.mdc'), 'utf8');
    // The front matter stays at byte 0; the provenance line follows its closing ---.
    const header = /\n---\n(<!-- imported-from: cursor; source: .*style\.mdc; mtime: .*; sha256: [0-9a-f]{64} -->\n)/.exec(style);
    expect(header).not.toBeNull();
    expect(style.replace(header?.[1] ?? '', '')).toBe(styleRule);
    expect((await readFile(join(resources, 'cursorrules.md'), 'utf8')).endsWith(legacyRules)).toBe(true);

    // The same sources again: the Target step and the Review step say there is nothing to import.
    await page.getByTestId('import-again').click();
    await cursorToTarget(page, paths);
    await expect(page.getByTestId('nothing-to-import')).toBeVisible();
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'review', /Step 6 of 8: Review/);
    await expect(page.getByTestId('step-review').getByTestId('nothing-to-import')).toBeVisible();
    await expect(page.getByTestId('wizard-next')).toBeDisabled();
    // Let the last draft write land before the fixture stops the server and removes its folder.
    await expect(page.getByTestId('draft-status')).toHaveAttribute('data-draft', 'saved');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a target changed on disk before Apply shows the conflict with what to do; rebase, accept again, Apply; a skipped secret file stays out', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const fixture = await makeClaudeHome(studio.sources);
  try {
    await ready(page, studio.url);
    await toSecretsStep(page, fixture.claudeHome, fixture.key);
    await page.getByTestId('secret-finding').getByText('Skip file').click();
    await expect(page.getByTestId('secret-finding')).toHaveAttribute('data-action', 'skip-file');
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await keyNext(page);
    await expectStep(page, 'target', /Target/);
    await expect(page.locator('[data-testid="target-write"][data-path$="feedback_tests.md"]')).toHaveCount(0);
    await keyNext(page);
    await expectStep(page, 'review', /Review/);
    await page.getByTestId('accept-all').click();
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await keyNext(page);
    await expectStep(page, 'apply', /Apply/);

    const resources = join(studio.codexHome, 'memories', 'extensions', 'external_agent_import', 'resources', fixture.key);
    await mkdir(resources, { recursive: true });
    await writeFile(join(resources, 'MEMORY.md'), 'written by someone else meanwhile\n');
    // The watcher sees it before Apply is pressed: the warning, and Apply waits for a rebase.
    await expect(page.getByTestId('stale-warning')).toBeVisible();
    await expect(page.getByTestId('conflict-help')).toContainText('Rebase');
    await expect(page.getByTestId('apply-button')).toBeDisabled();
    await keepScreenshot(page, testInfo, 'import-conflict');
    expect(await readFile(join(resources, 'MEMORY.md'), 'utf8')).toBe('written by someone else meanwhile\n');
    await page.getByTestId('rebase-button').click();
    await expect(page.getByTestId('stale-warning')).toHaveCount(0);
    await expect(page.getByTestId('rebase-result')).toContainText('1 conflict to resolve');
    await expect(page.getByTestId('resolve-help')).toBeVisible();

    await page.keyboard.press('Alt+ArrowLeft');
    await expectStep(page, 'review', /Review/);
    await page.getByTestId('accept-all').click();
    // Accept all never resolves the conflict: the file both sides created.
    await expect(page.getByTestId('wizard-next')).toBeDisabled();
    await page.locator('[data-testid="proposal-file"][data-version="v1"][data-conflicts="1"]').click();
    const conflict = page.locator('[data-testid="hunk-item"][data-kind="conflict"]');
    await expect(conflict.getByTestId('conflict-sides')).toContainText('written by someone else meanwhile');
    await conflict.getByTestId('resolve-ours').click();
    await expect(conflict).toHaveAttribute('data-decision', 'ours');
    await expect(page.getByTestId('wizard-next')).toBeEnabled();
    await page.getByTestId('wizard-next').click();
    await expectStep(page, 'apply', /Apply/);
    await page.getByTestId('apply-button').click();
    await expectStep(page, 'done', /Done/);
    expect(await readFile(join(resources, 'MEMORY.md'), 'utf8')).toBe(memoryIndex);
    await expect(readFile(join(resources, 'feedback_tests.md'))).rejects.toThrow();
  } finally {
    await rm(fixture.dir, { recursive: true, force: true });
  }
});

test('the Review step lists the lint warnings the files will raise, and still does after a reload', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  const fixture = await makeClaudeHome(studio.sources);
  // A topic file without front matter: Codex's lint will warn about it once it is in memory.
  await writeFile(join(fixture.claudeHome, 'projects', fixture.key, 'memory', 'loose_note.md'), 'A note without any front matter.\n');
  try {
    await ready(page, studio.url);
    await toSecretsStep(page, fixture.claudeHome, fixture.key);
    await page.getByTestId('secret-finding').getByText('Redact').click();
    await keyNext(page);
    await expectStep(page, 'target', /Target/);
    await keyNext(page);
    await expectStep(page, 'review', /Review/);
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');

    // What the lint will say, per written file, before anything is applied.
    const lint = page.getByTestId('step-review').getByTestId('import-lint');
    await expect(lint).toBeVisible();
    const total = Number(await lint.getAttribute('data-count'));
    expect(total).toBeGreaterThan(0);
    await expect(lint.getByTestId('import-lint-diagnostic')).toHaveCount(total);
    const listed = async () =>
      lint
        .getByTestId('import-lint-file')
        .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-version')} ${el.getAttribute('data-path')}`));
    const before = await listed();
    expect(before.every((entry) => entry.includes(`/${fixture.key}/`))).toBe(true);
    const loose = lint.locator('[data-testid="import-lint-file"][data-path$="/loose_note.md"]');
    await expect(loose.locator('[data-testid="import-lint-diagnostic"][data-rule="claude/front-matter"]').first()).toBeAttached();
    await lint.locator('summary').click();
    await expect(lint.getByTestId('import-lint-diagnostic').first()).toBeVisible();
    await keepScreenshot(page, testInfo, 'import-lint');

    // Reload on the Review step and resume: the same warnings, not an empty list.
    await expect(page.getByTestId('draft-status')).toHaveAttribute('data-draft', 'saved');
    await page.reload();
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible();
    await openImport(page);
    await expect(page.getByTestId('resume-import')).toBeFocused();
    await page.keyboard.press('Enter');
    await expectStep(page, 'review', /Review/);
    await expect(page.getByTestId('proposal-detail')).toHaveAttribute('data-status', 'pending');
    await expect(lint).toHaveAttribute('data-count', String(total));
    expect(await listed()).toEqual(before);
    await lint.locator('summary').click();
    await expect(lint.getByTestId('import-lint-diagnostic').first()).toBeVisible();
    // A test artifact; UPDATE_SCREENS=1 also copies it into docs/screens (a plain run never writes into the repository).
    await keepScreenshot(page, testInfo, 'import-lint-after-reload');
    if (process.env.UPDATE_SCREENS)
      await copyFile(
        testInfo.outputPath('import-lint-after-reload.png'),
        join(repoRoot, 'docs', 'screens', 'issue-27', 'after-import-lint.png'),
      );
  } finally {
    await rm(fixture.dir, { recursive: true, force: true });
  }
});
