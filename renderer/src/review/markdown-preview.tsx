// A tiny Markdown renderer for previews: headings, lists, code blocks, paragraphs, `code` and **bold**, as React text only.
import type { ReactNode } from 'react';

/** Inline `code` and **bold**; everything else stays text, so no HTML in a memory file can reach the DOM. */
function inline(text: string): ReactNode[] {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g);
  return parts.map((part, index) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={index}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 3) return <strong key={index}>{part.slice(2, -2)}</strong>;
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

function renderBlock(block: Block, index: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3' | 'h4' | 'h5' | 'h6';
      return <Tag key={index}>{inline(block.text)}</Tag>;
    }
    case 'list':
      return (
        <ul key={index}>
          {block.items.map((item, i) => (
            <li key={i}>{inline(item)}</li>
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
      return <p key={index}>{inline(block.text)}</p>;
  }
}

export function MarkdownPreview({ source }: { source: string }) {
  return <div className="markdown-preview">{parseBlocks(source).map(renderBlock)}</div>;
}
