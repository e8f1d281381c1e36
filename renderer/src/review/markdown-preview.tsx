// A tiny Markdown renderer for previews: headings, lists, code blocks, paragraphs, `code`, **bold** and links, as React
// text only.
import type { ReactNode } from 'react';
import { MarkdownLink, type LinkBase } from './markdown-links';

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\)|https:\/\/[^\s<>()]+)/g;

/** Inline `code`, **bold**, [links](…) and bare https URLs; everything else stays text, so no HTML in a file reaches the DOM. */
function inline(text: string, base: LinkBase | undefined): ReactNode[] {
  const parts = text.split(INLINE);
  return parts.map((part, index) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={index}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <strong key={index}>{part.slice(2, -2)}</strong>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) return <MarkdownLink key={index} text={link[1] ?? ''} href={link[2] ?? ''} base={base} />;
    if (part.startsWith('https://')) {
      // Sentence punctuation after a bare URL is not part of it.
      const url = part.replace(/[.,;:!?'"]+$/, '');
      return [<MarkdownLink key={index} text={url} href={url} base={base} />, part.slice(url.length)];
    }
    return part;
  });
}

type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'code'; text: string }
  | { type: 'para'; text: string };

function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      const body: string[] = [];
      for (i += 1; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) body.push(lines[i] ?? '');
      blocks.push({ type: 'code', text: body.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    const last = blocks[blocks.length - 1];
    if (heading) blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
    else if (bullet && last?.type === 'list') last.items.push(bullet[1] ?? '');
    else if (bullet) blocks.push({ type: 'list', items: [bullet[1] ?? ''] });
    else if (line.trim() === '') continue;
    else if (last?.type === 'para') last.text += ` ${line.trim()}`;
    else blocks.push({ type: 'para', text: line.trim() });
  }
  return blocks;
}

function renderBlock(block: Block, index: number, base: LinkBase | undefined): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3' | 'h4' | 'h5' | 'h6';
      return <Tag key={index}>{inline(block.text, base)}</Tag>;
    }
    case 'list':
      return (
        <ul key={index}>
          {block.items.map((item, i) => (
            <li key={i}>{inline(item, base)}</li>
          ))}
        </ul>
      );
    case 'code':
      return (
        <pre key={index}>
          <code>{block.text}</code>
        </pre>
      );
    case 'para':
      return <p key={index}>{inline(block.text, base)}</p>;
  }
}

/** `base`: the file's root and path, so its relative links open memory files in the app; without it they stay text. */
export function MarkdownPreview({ source, base }: { source: string; base?: LinkBase }) {
  return (
    <div className="markdown-preview" data-testid="markdown-preview">
      {parseBlocks(source).map((block, index) => renderBlock(block, index, base))}
    </div>
  );
}
