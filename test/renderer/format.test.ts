// Format helpers the whole UI uses for sizes, counts, paths, languages and relative times.
import { describe, expect, it } from 'vitest';
import {
  baseName,
  formatBytes,
  formatRelative,
  formatUnix,
  HIGHLIGHT_MAX_CHARS,
  languageForContent,
  languageForPath,
  memoriesFeatureText,
  plural,
  shortId,
  splitPath,
} from '../../renderer/src/lib/format';

describe('format helpers', () => {
  it('formats sizes with one decimal below 100 of a unit and none above', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(150 * 1024)).toBe('150 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3072 GB');
  });

  it('says one and many', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('splits a path into folder and name', () => {
    expect(splitPath('rollout_summaries/a.md')).toEqual({ dir: 'rollout_summaries/', name: 'a.md' });
    expect(splitPath('MEMORY.md')).toEqual({ dir: '', name: 'MEMORY.md' });
  });

  it('picks the editor language by extension, and plain text for a huge file', () => {
    expect(languageForPath('notes/A.MD')).toBe('markdown');
    expect(languageForPath('skills/x/manifest.json')).toBe('json');
    expect(languageForPath('raw_memories.txt')).toBe('plaintext');
    expect(languageForContent('MEMORY.md', 'x'.repeat(HIGHLIGHT_MAX_CHARS))).toBe('markdown');
    expect(languageForContent('MEMORY.md', 'x'.repeat(HIGHLIGHT_MAX_CHARS + 1))).toBe('plaintext');
  });

  it('names the memories feature as the status bar says it', () => {
    expect(memoriesFeatureText(null)).toBe('not set');
    expect(memoriesFeatureText(true)).toBe('on');
    expect(memoriesFeatureText(false)).toBe('off');
  });

  it('uses the fallback for a missing Codex time', () => {
    expect(formatUnix(null)).toBe('never');
    expect(formatUnix(undefined, 'not yet')).toBe('not yet');
    expect(formatUnix({ seconds: 0 })).not.toBe('never');
  });

  it('says how far a time is in the largest whole unit', () => {
    const now = 1_700_000_000;
    const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    expect(formatRelative(now + 3 * 3600, now)).toBe(rtf.format(3, 'hour'));
    expect(formatRelative(now - 2 * 86_400, now)).toBe(rtf.format(-2, 'day'));
    expect(formatRelative(now - 170, now)).toBe(rtf.format(-3, 'minute'));
    expect(formatRelative(now + 5, now)).toBe(rtf.format(5, 'second'));
  });

  it('shortens thread ids and names projects by their last folder', () => {
    expect(shortId('019a1b2c-3d4e-5f60-7182-93a4b5c6d7e8')).toBe('019a1b2c…d7e8');
    expect(shortId('short-id')).toBe('short-id');
    expect(baseName('/home/dana/src/webapp/')).toBe('webapp');
    expect(baseName('C:\\src\\api')).toBe('api');
  });
});
