// One source file in the Files step: its parsed front matter, a rendered Markdown preview (React text only) and the raw text.
import { useState } from 'react';
import type { ImportPlanInput, PlanFile } from '../../../shared/import';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { Fact } from '../common/fact';
import { formatBytes } from '../lib/format';
import { MarkdownPreview } from '../review/markdown-preview';

type Mode = 'rendered' | 'raw';

const HEADER = /^<!-- imported-from: [^\n]*-->\r?\n/;

/**
 * The body the rendered view shows: without a leading `---` front-matter block (shown as facts above) and without the
 * provenance header an import adds to a Cursor file (an HTML comment: first, or right after the front matter).
 */
export function renderedBody(text: string): { body: string; header: boolean } {
  const first = HEADER.exec(text);
  const rest = first ? text.slice(first[0].length) : text;
  const front = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(rest);
  const body = front ? rest.slice(front[0].length) : rest;
  const after = first ? null : HEADER.exec(body);
  return { body: after ? body.slice(after[0].length) : body, header: first !== null || after !== null };
}

function FrontMatter({ file }: { file: PlanFile }) {
  const { frontMatter } = file;
  if (frontMatter.layout === 'none') return <p className="muted small">No front matter.</p>;
  return (
    <dl className="facts import-facts" data-testid="front-matter" data-layout={frontMatter.layout}>
      <Fact term="Layout">{frontMatter.layout === 'nested' ? 'nested under metadata:' : 'flat'}</Fact>
      {frontMatter.name !== null ? <Fact term="name">{frontMatter.name}</Fact> : null}
      {frontMatter.description !== null ? <Fact term="description">{frontMatter.description}</Fact> : null}
      {frontMatter.type !== null ? <Fact term="type">{frontMatter.type}</Fact> : null}
      {Object.entries(frontMatter.other).map(([key, value]) => (
        <Fact key={key} term={key}>
          {value}
        </Fact>
      ))}
    </dl>
  );
}

export interface FilePreviewProps {
  project: string;
  file: PlanFile;
  input: ImportPlanInput;
  /** The plan left the texts out (a large import): they are asked for, one file at a time. */
  textsOmitted: boolean;
}

export function FilePreview({ project, file, input, textsOmitted }: FilePreviewProps) {
  const [mode, setMode] = useState<Mode>('rendered');
  const fetched = useStudioQuery(
    'import.fileText',
    textsOmitted && file.readable ? { plan: input, project, relPath: file.relPath } : skipToken,
  );
  const texts = textsOmitted ? (fetched.data ?? { content: null, sourceText: null }) : file;
  // What would be written (redactions applied) when the file is importable, else the source as read.
  const text = texts.content ?? texts.sourceText;
  const label = texts.content !== null ? 'As it will be written' : 'Source as read';
  if (textsOmitted && file.readable && !fetched.data) {
    return fetched.error ? (
      <ErrorPanel
        compact
        title={`Cannot show ${file.relPath}`}
        error={toStudioError(fetched.error)}
        onRetry={() => void fetched.refetch()}
      />
    ) : (
      <LoadingState label={`Reading ${file.relPath}…`} />
    );
  }
  const rendered = text === null ? null : renderedBody(text);
  return (
    <section className="import-preview" aria-labelledby="import-preview-title" data-testid="file-preview" data-path={file.relPath}>
      <header className="import-preview-header">
        <h3 id="import-preview-title" className="break">
          {project}/{file.relPath}
        </h3>
        <span className="muted small">
          {formatBytes(file.size)} · modified {file.mtime}
        </span>
      </header>
      <p className="muted small break">
        Source: <code>{file.sourcePath}</code>
      </p>
      <FrontMatter file={file} />
      <div className="segmented" role="tablist" aria-label="Preview">
        {(['rendered', 'raw'] as const).map((item) => (
          <button
            key={item}
            type="button"
            role="tab"
            className={mode === item ? 'segment is-checked' : 'segment'}
            aria-selected={mode === item}
            data-testid={`preview-${item}`}
            onClick={() => setMode(item)}
          >
            {item === 'rendered' ? 'Rendered' : 'Raw'}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={`${mode === 'rendered' ? 'Rendered' : 'Raw'} preview: ${label}`} className="import-preview-body">
        {text === null || rendered === null ? (
          <p className="muted">{file.reason ?? 'The file could not be read.'}</p>
        ) : mode === 'rendered' ? (
          <>
            {rendered.header ? (
              <p className="muted small">A provenance header (source, modification time, hash) comes first: see Raw.</p>
            ) : null}
            <MarkdownPreview source={rendered.body} />
          </>
        ) : (
          <pre className="import-raw" data-testid="raw-preview" tabIndex={0} aria-label={`Raw text of ${file.relPath}`}>
            {text}
          </pre>
        )}
      </div>
      <p className="muted small">{label}.</p>
    </section>
  );
}
