// Codex's global Phase 2 lease as Memory Studio holds it: claimed, heart-beaten and released in Codex's DB, with a
// record file per held lease so a dead holder is found and its lease handed back.
export { createLeaseLender, type LeaseLender } from './held-leases';
export { claimLease, heartbeatLease, releaseLease, HEARTBEAT_MS, STUDIO_LEASE_SECONDS, type HeldLease } from './codex-lease';
