// What every kind parser gets: the text, its exact lines, path facts and a capped diagnostics collector.
import type { DiagnosticFix, ParsedDiagnostic, ParsedFile, ParsedKind, SourceModel } from '../../../shared/formats';
import { scanFences, type FenceScan } from './markdown';

/** More than this many diagnostics of one rule collapse into one summary line (hostile or huge inputs). */
export const MAX_DIAGNOSTICS_PER_RULE = 200;

type Severity = ParsedDiagnostic['severity'];

/** Collects diagnostics; past `MAX_DIAGNOSTICS_PER_RULE` of a rule it only counts them. */
export class DiagnosticSink {
  private readonly list: ParsedDiagnostic[] = [];
  private readonly counts = new Map<string, { n: number; first: number }>();

  constructor(private readonly lineCount: number) {}

  add(severity: Severity, rule: string, line: number, endLine: number, message: string, fix?: DiagnosticFix): void {
    const count = this.counts.get(rule) ?? { n: 0, first: line };
    count.n++;
    this.counts.set(rule, count);
    if (count.n > MAX_DIAGNOSTICS_PER_RULE) return;
    const max = Math.max(1, this.lineCount);
    const l = Math.min(Math.max(1, line), max);
    const diagnostic: ParsedDiagnostic = { severity, rule, line: l, endLine: Math.min(Math.max(l, endLine), max), message };
    if (fix) diagnostic.fix = fix;
    this.list.push(diagnostic);
  }

  error(rule: string, line: number, endLine: number, message: string, fix?: DiagnosticFix): void {
    this.add('error', rule, line, endLine, message, fix);
  }

  warning(rule: string, line: number, endLine: number, message: string, fix?: DiagnosticFix): void {
    this.add('warning', rule, line, endLine, message, fix);
  }

  info(rule: string, line: number, endLine: number, message: string, fix?: DiagnosticFix): void {
    this.add('info', rule, line, endLine, message, fix);
  }

  /** The diagnostics in line order, plus one summary per rule that overflowed. */
  finish(): ParsedDiagnostic[] {
    const out = this.list.slice().sort((a, b) => a.line - b.line || a.endLine - b.endLine);
    for (const [rule, { n, first }] of this.counts) {
      if (n <= MAX_DIAGNOSTICS_PER_RULE) continue;
      const line = Math.min(Math.max(1, first), Math.max(1, this.lineCount));
      out.push({
        severity: 'info',
        rule,
        line,
        endLine: line,
        message: `${n - MAX_DIAGNOSTICS_PER_RULE} more findings of ${rule} are not listed (${n} in total).`,
      });
    }
    return out;
  }
}

export interface PathFacts {
  kind: ParsedKind;
  /** Path relative to the memory root (`/` separators) when it could be found. */
  rel: string | null;
  fileName: string | null;
  version: 'v1' | 'v2' | null;
}

export interface ParseContext extends PathFacts {
  /** The text exactly as given (BOM included). */
  text: string;
  src: SourceModel;
  lines: readonly string[];
  path: string;
  diags: DiagnosticSink;
  /** Fenced code blocks, optionally closed at barrier lines (computed once per barrier). */
  fences(barrier?: RegExp): FenceScan;
}

export function createContext(text: string, src: SourceModel, path: string, facts: PathFacts): ParseContext {
  const cache = new Map<string, FenceScan>();
  return {
    ...facts,
    text,
    src,
    lines: src.lines,
    path,
    diags: new DiagnosticSink(src.lines.length),
    fences(barrier?: RegExp): FenceScan {
      const key = barrier ? barrier.source : '';
      let scan = cache.get(key);
      if (!scan) {
        scan = scanFences(src.lines, barrier);
        cache.set(key, scan);
      }
      return scan;
    },
  };
}

/** The kind-specific part of a parse result; `index.ts` adds path, line count, diagnostics and source. */
export type Body<K extends ParsedKind> = Omit<Extract<ParsedFile, { kind: K }>, 'path' | 'lineCount' | 'diagnostics' | 'source'>;

/** Reports fences left open (they would hide the rest of the file from a Markdown reader). */
export function reportUnclosedFences(ctx: ParseContext, scan: FenceScan): void {
  for (const line of scan.unclosed) {
    ctx.diags.warning(
      'format/unclosed-fence',
      line,
      line,
      'This code fence is never closed, so everything after it reads as code; close it with a matching fence line.',
    );
  }
}

/** Sets an own, enumerable property even for keys like `__proto__` (file content decides the keys). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

export const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);
