// The budget lens's public surface: Codex's summary truncation, ported byte for byte, and the report built on it.
export { budgetForRoot, computeBudget, splitFragments, type BudgetOptions } from './budget';
export { countO200kTokens } from './o200k';
export { rustTrim, rustTrimRange } from '../codex/rust-str';
export {
  approxTokensFromByteCount,
  tokenTruncationMarker,
  truncateMiddleWithTokenBudget,
  truncateText,
  type TokenTruncation,
} from './truncate';
