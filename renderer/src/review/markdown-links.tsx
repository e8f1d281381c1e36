// Links in rendered Markdown: a memory path opens in the app, an https link in the browser (main's one gate for external
// links: a new window is refused and handed to shell.openExternal, https only); the app window never navigates.
import { createContext, useContext, type ReactNode } from 'react';
import type { MemoryVersion } from '../../../shared/domain';

/** Opens a memory file in the Files view; provided once by the app. */
export type OpenMemoryPath = (version: MemoryVersion, path: string) => void;

const OpenPathContext = createContext<OpenMemoryPath | null>(null);

export function MarkdownLinkProvider({ open, children }: { open: OpenMemoryPath; children: ReactNode }) {
  return <OpenPathContext.Provider value={open}>{children}</OpenPathContext.Provider>;
}

/** Where the links of a rendered file point from: its root and its path (relative links resolve from its folder). */
export interface LinkBase {
  version: MemoryVersion;
  path: string;
}

export type LinkTarget = { type: 'external'; url: string } | { type: 'memory'; path: string } | { type: 'none' };

/** What a link's target is: an https URL, a path inside the memory root (resolved from `from`), or neither. */
export function linkTarget(href: string, from: string): LinkTarget {
  const target = href.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    try {
      const url = new URL(target);
      return url.protocol === 'https:' && url.username === '' && url.password === ''
        ? { type: 'external', url: url.href }
        : { type: 'none' };
    } catch {
      return { type: 'none' };
    }
  }
  const bare = target.replace(/[#?].*$/, '');
  if (bare === '' || bare.startsWith('/') || bare.includes('\\')) return { type: 'none' };
  const parts = from.split('/').slice(0, -1);
  for (const part of bare.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return { type: 'none' };
      parts.pop();
    } else parts.push(part);
  }
  return parts.length > 0 ? { type: 'memory', path: parts.join('/') } : { type: 'none' };
}

/** One link: an app link, an external link in a new (refused, handed over) window, or its text when it leads nowhere. */
export function MarkdownLink({ href, text, base }: { href: string; text: string; base: LinkBase | undefined }) {
  const open = useContext(OpenPathContext);
  const target = linkTarget(href, base?.path ?? '');
  if (target.type === 'external')
    return (
      <a className="md-link" href={target.url} target="_blank" rel="noopener noreferrer" title={`${target.url} (opens in the browser)`}>
        {text}
      </a>
    );
  if (target.type === 'memory' && base && open)
    return (
      <a
        className="md-link"
        href={`#${base.version}/${target.path}`}
        data-memory-path={target.path}
        title={`Open ${base.version}/${target.path}`}
        onClick={(event) => {
          event.preventDefault();
          open(base.version, target.path);
        }}
      >
        {text}
      </a>
    );
  return (
    <span className="md-link-inert" title={href}>
      {text}
    </span>
  );
}
