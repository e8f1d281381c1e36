// Test-only: lets a kill test stop an Apply at one exact step (the process SIGKILLs itself there); inert otherwise.
//
// The kill tests start a real `memory-studio apply` with MEMORY_STUDIO_TEST_KILL_AT=<step> and NODE_ENV=test, then a
// new process recovers and the test checks files, history, provenance and status (test/unit/apply/kill-steps.test.ts).
// Both variables are needed, and never in Electron, so nothing a person runs reaches it: a stray variable alone is
// ignored. Steps, in order: `locked`, `leased`, `temps`, `journal`, `renamed-<n>` (after the n-th commit step, from 0),
// `db` (after the Codex-DB changes), `recorded` (after the history entry), `journal-deleted`, `released` (leases
// handed back, lock files not yet).
const STEP_VARIABLE = 'MEMORY_STUDIO_TEST_KILL_AT';

export type KillStep = 'locked' | 'leased' | 'temps' | 'journal' | `renamed-${number}` | 'db' | 'recorded' | 'journal-deleted' | 'released';

export function killPoint(step: KillStep): void {
  if (process.env[STEP_VARIABLE] !== step || process.env.NODE_ENV !== 'test' || process.versions.electron !== undefined) return;
  process.kill(process.pid, 'SIGKILL');
}
