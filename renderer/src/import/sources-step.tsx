// Step 1, Sources: Claude Code or Cursor, the home (detected or typed), Cursor repositories; what was found and what was skipped.
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Detection, ImportSource, ImportSourceOptions, SourceHome } from '../../../shared/import';
import { toStudioError } from '../api/studio-request-error';
import { ChoosePathButton } from '../common/choose-path-button';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { formatBytes, plural } from '../lib/format';
import { PathField } from './path-field';
import { SkippedList } from './skipped-list';
import type { WizardAction } from './wizard-model';

export const sourceLabels: Record<ImportSource, string> = { claude: 'Claude Code', cursor: 'Cursor' };
const originLabels: Record<SourceHome['origin'], string> = {
  picked: 'picked by you',
  env: 'from CLAUDE_CONFIG_DIR',
  default: 'default location',
};

export interface SourcesStepProps {
  options: ImportSourceOptions;
  detection: UseQueryResult<Detection, Error>;
  dispatch: (action: WizardAction) => void;
}

function SourcePicker({ from, onChange }: { from: ImportSource; onChange: (from: ImportSource) => void }) {
  const name = useId();
  return (
    <fieldset className="segmented" data-testid="import-source">
      <legend className="sr-only">Import from</legend>
      {(Object.keys(sourceLabels) as ImportSource[]).map((source) => (
        <label key={source} className={source === from ? 'segment is-checked' : 'segment'}>
          <input type="radio" name={name} value={source} checked={source === from} data-source={source} onChange={() => onChange(source)} />
          {sourceLabels[source]}
        </label>
      ))}
    </fieldset>
  );
}

const repoLabels: Record<ImportSource, string> = {
  claude: 'Repositories whose .claude/settings*.json may set a custom autoMemoryDirectory (optional)',
  cursor: 'Repositories to read project rules from (.cursor/rules/*.mdc, .cursorrules)',
};

function RepoList({ from, repos, onChange }: { from: ImportSource; repos: readonly string[]; onChange: (repos: string[]) => void }) {
  const [text, setText] = useState('');
  const addPath = (path: string) => {
    if (path && !repos.includes(path)) onChange([...repos, path]);
  };
  const add = () => {
    addPath(text.trim());
    setText('');
  };
  return (
    <div className="import-field">
      <label htmlFor="import-repo-input">{repoLabels[from]}</label>
      <div className="import-field-row">
        <input
          id="import-repo-input"
          className="import-input"
          type="text"
          spellCheck={false}
          value={text}
          placeholder="/home/me/src/my-repo"
          data-testid="repo-input"
          data-own-enter=""
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            add();
          }}
        />
        <button type="button" className="button" onClick={add} disabled={text.trim() === ''}>
          Add repository
        </button>
        <ChoosePathButton purpose="repo" label="Choose a repository" onChosen={addPath} />
      </div>
      {repos.length > 0 ? (
        <ul className="plain-list import-repos" aria-label="Repositories">
          {repos.map((repo) => (
            <li key={repo} data-testid="repo-item">
              <code className="break">{repo}</code>{' '}
              <button
                type="button"
                className="link-button"
                aria-label={`Remove ${repo}`}
                onClick={() => onChange(repos.filter((r) => r !== repo))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Found({ detection }: { detection: Detection }) {
  const files = detection.projects.reduce((sum, p) => sum + p.fileCount, 0);
  const importable = detection.projects.reduce((sum, p) => sum + p.importableCount, 0);
  return (
    <section className="import-found" aria-labelledby="import-found-title" data-testid="import-found">
      <h3 id="import-found-title" className="page-section-title">
        Found {plural(detection.projects.length, 'project')} with {plural(files, 'file')} ({importable.toLocaleString()} importable)
      </h3>
      <ul className="plain-list">
        {detection.homes.map((home) => (
          <li key={home.path} data-testid="source-home">
            <code className="break">{home.path}</code> <span className="muted">({originLabels[home.origin]})</span>{' '}
            {home.exists ? null : <span className="badge badge-warn badge-small">not found</span>}
          </li>
        ))}
      </ul>
      {detection.messages.map((message) => (
        <p key={message} className="notice notice-info">
          {message}
        </p>
      ))}
      {detection.projects.length > 0 ? (
        <table className="counts-table import-table" data-testid="found-projects">
          <thead>
            <tr>
              <th>Project key</th>
              <th className="num">Files</th>
              <th className="num">Importable</th>
              <th className="num">Skipped</th>
              <th className="num">Size</th>
            </tr>
          </thead>
          <tbody>
            {detection.projects.map((project) => (
              <tr key={project.key} data-testid="found-project" data-key={project.key}>
                <td>
                  <code className="break">{project.key}</code>
                </td>
                <td className="num">{project.fileCount}</td>
                <td className="num">{project.importableCount}</td>
                <td className="num">{project.skippedCount}</td>
                <td className="num">{formatBytes(project.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <SkippedList skipped={detection.skipped} />
    </section>
  );
}

export function SourcesStep({ options, detection, dispatch }: SourcesStepProps) {
  const detected = detection.data?.homes.find((home) => home.origin !== 'picked')?.path;
  const setOptions = (patch: Partial<Omit<ImportSourceOptions, 'from'>>) => dispatch({ type: 'options', patch });
  return (
    <div className="import-step" data-testid="step-sources">
      <SourcePicker from={options.from} onChange={(from) => dispatch({ type: 'source', from })} />
      <PathField
        id="import-source-home"
        label={`${sourceLabels[options.from]} home (leave empty for the detected one)`}
        value={options.sourceHome ?? ''}
        placeholder={detected ?? (options.from === 'claude' ? '~/.claude' : '~/.cursor')}
        action="Scan"
        testId="source-home-input"
        onCommit={(value) => setOptions({ sourceHome: value || undefined })}
      >
        <ChoosePathButton
          purpose="import-source"
          label={`Choose the ${sourceLabels[options.from]} home`}
          onChosen={(path) => setOptions({ sourceHome: path })}
        />
      </PathField>
      <RepoList from={options.from} repos={options.repos ?? []} onChange={(repos) => setOptions({ repos })} />
      {options.from === 'cursor' ? (
        <PathField
          id="import-cursor-db"
          label="Cursor's state.vscdb for User Rules (leave empty for Cursor's usual location; opened read-only)"
          value={options.cursorStateDb ?? ''}
          action="Set"
          onCommit={(value) => setOptions({ cursorStateDb: value || undefined })}
        >
          <ChoosePathButton
            purpose="cursor-db"
            label="Choose Cursor's state.vscdb"
            onChosen={(path) => setOptions({ cursorStateDb: path })}
          />
        </PathField>
      ) : null}
      {detection.error ? (
        <ErrorPanel
          compact
          title="Cannot read the source"
          error={toStudioError(detection.error)}
          onRetry={() => void detection.refetch()}
          retrying={detection.isFetching}
        />
      ) : null}
      {detection.isFetching ? <LoadingState inline label="Looking for memory…" /> : null}
      {detection.data && !detection.error ? <Found detection={detection.data} /> : null}
    </div>
  );
}
