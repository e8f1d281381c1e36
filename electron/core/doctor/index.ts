// The memory doctor (issue 16): findings on a home's memory, and every fix as a reviewed proposal.
export { runDoctor, type DoctorRun } from './report';
export { findFinding, proposeFix, proposeGroupFix, proposePromotion, type FixContext, type PromoteInput } from './fixes';
export { explainFinding, modelMergeFinding, type ModelDeps } from './model-help';
export { DUPLICATE_THRESHOLD } from './similarity';
