// Apply, the only way anything is written: a reviewed proposal (applyProposal) or a plan (applyPlan), with recovery.
export type * from './types';
export { applyProposal } from './apply-proposal';
export { applyPlan } from './apply-plan';
export { recoverLeftovers, recoverInterruptedApplies, recoveryScopeOf, type RecoveryOptions } from './recovery';
export { lockPathFor } from './lock-file';
