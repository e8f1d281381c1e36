// The lint fix shape stays the parsers' fix shape, so one applier and one review flow serve both.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DiagnosticFixSchema, type DiagnosticFix, type ParsedDiagnostic } from '../../../shared/formats';
import { LintFixSchema, LintDiagnosticSchema, type LintDiagnostic, type LintFix } from '../../../shared/lint';

describe("LintFix and the parsers' DiagnosticFix", () => {
  it('are the same type', () => {
    expectTypeOf<LintFix>().toEqualTypeOf<DiagnosticFix>();
  });

  it('a parser diagnostic is a lint diagnostic', () => {
    expectTypeOf<ParsedDiagnostic>().toMatchTypeOf<LintDiagnostic>();
  });

  it('accept the same values, including a pure insertion (endLine = line - 1), and reject the same', () => {
    const insertion = { description: 'Insert', edits: [{ line: 1, endLine: 0, text: 'v1' }] };
    expect(LintFixSchema.parse(insertion)).toEqual(DiagnosticFixSchema.parse(insertion));
    const bad = { description: 'x', edits: [{ line: 0, endLine: 0, text: '' }] };
    expect(LintFixSchema.safeParse(bad).success).toBe(false);
    expect(DiagnosticFixSchema.safeParse(bad).success).toBe(false);
  });

  it('a lint diagnostic requires a 1-based line and allows columns', () => {
    expect(LintDiagnosticSchema.safeParse({ severity: 'error', rule: 'r', line: 0, endLine: 1, message: 'm' }).success).toBe(false);
    expect(
      LintDiagnosticSchema.parse({ severity: 'info', rule: 'r', line: 1, endLine: 1, startColumn: 2, endColumn: 5, message: 'm' }),
    ).toBeTruthy();
  });
});
