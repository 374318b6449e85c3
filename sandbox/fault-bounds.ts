/**
 * The bound of the emulators' added latency, one place for the faults route's schema
 * (sandbox/faults.ts) and the sandbox command's FINANCE_TUI_SANDBOX_LATENCY_MS (a module of its
 * own, so the command reads it without loading the emulators).
 */
export const LATENCY_MAX_MS = 120_000;
