// Translates the Go (RE2) regular expressions of the adopted gitleaks rules into JavaScript RegExps.
import { group } from '../platform/indexed';
//
// Go differs from JS where these rules use it: inline flags anywhere (`p8e-(?i)[a-z0-9]{32}`, `(?-i:[Aa]pi)`,
// `(?s:.)`), POSIX classes (`[[:alnum:]]`), `\z`, and ASCII-only `\s` and `.` (which excludes only `\n`). Node 20
// has no inline modifiers, so case-insensitivity is spelled out per letter ([aA]) wherever it is not global.

interface Mode {
  ci: boolean;
  dotAll: boolean;
}

const GO_SPACE = String.raw`\t\n\f\r `;
const POSIX: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
  space: GO_SPACE,
  word: String.raw`\w`,
  punct: String.raw`!-\/:-@\[-\x60{-~`,
};

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const otherCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** One character class `[...]` starting at `src[at] === '['`; returns the JS class and where it ends. */
function translateClass(src: string, at: number, mode: Mode): { out: string; end: number } {
  let i = at + 1;
  let out = '';
  const negated = src[i] === '^';
  if (negated) i++;
  const extra: string[] = [];
  let first = true;
  while (i < src.length && (src[i] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(i));
    if (posix) {
      const body = POSIX[group(posix, 2)];
      if (body === undefined || posix[1]) throw new Error(`unsupported POSIX class ${posix[0]}`);
      out += body;
      i += posix[0].length;
      continue;
    }
    if (src[i] === '\\') {
      const next = src.charAt(i + 1);
      if (next === '') throw new Error('trailing backslash in a character class');
      if (next === 's') out += GO_SPACE;
      else if (next === 'x' && src[i + 2] === '{') {
        const close = src.indexOf('}', i);
        out += `\\u{${src.slice(i + 3, close)}}`.replace(/^\\u\{([0-9a-fA-F]{1,4})\}$/, (_, h: string) => `\\u${h.padStart(4, '0')}`);
        i = close + 1;
        continue;
      } else out += `\\${next}`;
      i += 2;
      continue;
    }
    const c = src.charAt(i);
    // A range a-z: with case folding, its other-case twin joins the class.
    if (src[i + 1] === '-' && src[i + 2] !== undefined && src[i + 2] !== ']') {
      const to = src.charAt(i + 2);
      // A range ending in an escape past the end leaves `i` past it: the check below reports the unterminated class.
      out += `${c}-${to === '\\' ? '\\' + src.charAt(i + 3) : to}`;
      if (mode.ci && isLetter(c) && isLetter(to) && c <= 'Z' === to <= 'Z') extra.push(`${otherCase(c)}-${otherCase(to)}`);
      i += to === '\\' ? 4 : 3;
      continue;
    }
    out += c === '[' ? '\\[' : c;
    if (mode.ci && isLetter(c)) extra.push(otherCase(c));
    i++;
  }
  if (src[i] !== ']') throw new Error('unterminated character class');
  // The other-case letters go first: after a trailing `-` they would turn it into a range.
  return { out: `[${negated ? '^' : ''}${extra.join('')}${out}]`, end: i + 1 };
}

/** Group openers: `(?flags)` changes the mode of the rest of the group, `(?flags:` of the new group only. */
function parseFlags(src: string, at: number, mode: Mode): { open: string | null; mode: Mode; end: number; scoped: boolean } {
  const m = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(src.slice(at));
  if (!m) {
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(src.slice(at));
    if (named) return { open: `(?<${named[1]}>`, mode, end: at + named[0].length, scoped: true };
    throw new Error(`unsupported group at ${at}`);
  }
  const next = { ...mode };
  for (const f of m[1] ?? '') {
    if (f === 'i') next.ci = true;
    else if (f === 's') next.dotAll = true;
    else throw new Error(`unsupported flag ${f}`);
  }
  for (const f of m[2] ?? '') {
    if (f === 'i') next.ci = false;
    else if (f === 's') next.dotAll = false;
    else throw new Error(`unsupported flag -${f}`);
  }
  return m[3] === ':'
    ? { open: '(?:', mode: next, end: at + m[0].length, scoped: true }
    : { open: null, mode: next, end: at + m[0].length, scoped: false };
}

/** The JS source of a Go regexp, case folding spelled out. */
export function goToJsSource(src: string, initial: Mode = { ci: false, dotAll: false }): string {
  const stack: Mode[] = [];
  let mode = { ...initial };
  let out = '';
  for (let i = 0; i < src.length;) {
    const c = src.charAt(i);
    if (c === '\\') {
      const next = src.charAt(i + 1);
      if (next === '') throw new Error('trailing backslash');
      if (next === 'z') out += '$';
      else if (next === 'A') out += '^';
      else if (next === 's') out += `[${GO_SPACE}]`;
      else if (next === 'S') out += `[^${GO_SPACE}]`;
      else if (next === 'Q' || next === 'p' || next === 'P') throw new Error(`unsupported escape \\${next}`);
      else if (mode.ci && isLetter(next) && !/[bBdDwWtnrfvx]/.test(next)) out += `[${next}${otherCase(next)}]`;
      else out += `\\${next}`;
      i += 2;
    } else if (c === '[') {
      const cls = translateClass(src, i, mode);
      out += cls.out;
      i = cls.end;
    } else if (c === '(') {
      if (src[i + 1] === '?') {
        const group = parseFlags(src, i, mode);
        if (group.scoped) {
          stack.push(mode);
          out += group.open as string;
        }
        mode = group.mode;
        i = group.end;
      } else {
        stack.push(mode);
        out += '(';
        i++;
      }
    } else if (c === ')') {
      mode = stack.pop() ?? mode;
      out += ')';
      i++;
    } else if (c === '.') {
      out += mode.dotAll ? String.raw`[\s\S]` : String.raw`[^\n]`;
      i++;
    } else {
      out += mode.ci && isLetter(c) ? `[${c}${otherCase(c)}]` : c;
      i++;
    }
  }
  return out;
}

/**
 * A global JS RegExp equal to the Go one. A pattern that is case-insensitive throughout (`(?i)` first, never
 * switched off) uses the `i` flag, which V8 runs faster than spelled-out classes.
 */
export function goRegExp(src: string, flags = 'g'): RegExp {
  if (src.startsWith('(?i)') && !src.includes('(?-i')) return new RegExp(goToJsSource(src.slice(4)), `${flags}i`);
  return new RegExp(goToJsSource(src), flags);
}
