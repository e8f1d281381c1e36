// The lint's public surface: lintRoot, the secret scanner, and Codex's validators on a single text.
export { checkSummaryFirstLine, checkV2Headings, checkV2Size } from './codex-rules';
export { rustLines } from '../codex/rust-str';
export { lintRoot, type ExtraLintRule, type LintContext, type LintFileInput, type LintRuleContext } from './lint-root';
export {
  codexRedactSecrets,
  findSecretSpans,
  maskSecret,
  redactAllSecrets,
  scanSecrets,
  secretDiagnostics,
  secretLabel,
  SECRET_RULE_SPECS,
} from './secrets';
export { lineSetOf, TextLines } from './text-lines';
