/**
 * Every exit code a finance-tui process can end with, in one table: `--help` and the README
 * ("Exit codes") print it, and nothing exits with a code that is not here (docs/architecture.md "Headless output").
 * 0/1/2/4 are gh's set, 3 and 5 are ours (a transaction that left the client with no known outcome; a plan that changed before signing); 130 and 143 are the shell's convention for a process stopped by
 * SIGINT/SIGTERM, used only when a second signal forces an exit before the command wound down.
 */
export const ExitCode = {
  OK: 0,
  ERROR: 1,
  CANCELLED: 2,
  SUBMITTED: 3,
  AUTH: 4,
  PLAN_CHANGED: 5,
  FORCED_SIGINT: 130,
  FORCED_SIGTERM: 143,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_TABLE: ReadonlyArray<{ code: ExitCode; meaning: string }> = [
  {
    code: ExitCode.OK,
    meaning: 'ok (also: serve and sandbox stopped cleanly by Ctrl+C or SIGTERM)',
  },
  {
    code: ExitCode.ERROR,
    meaning: 'error: usage, input, network, server (the error code says which)',
  },
  {
    code: ExitCode.CANCELLED,
    meaning: 'cancelled (CANCELLED): Ctrl+C or SIGTERM stopped the command',
  },
  {
    code: ExitCode.SUBMITTED,
    meaning:
      'submitted, not confirmed (SUBMITTED_UNCONFIRMED, TRANSACTION_PENDING): the transaction may land; do not retry, check `finance-tui history`',
  },
  {
    code: ExitCode.AUTH,
    meaning: 'authentication needed or refused (AUTH_REQUIRED, SESSION_EXPIRED, …)',
  },
  {
    code: ExitCode.PLAN_CHANGED,
    meaning:
      'the plan changed before signing (PLAN_CHANGED): nothing was signed; the new plan is shown (--json: error.details.plan) to review and confirm',
  },
  {
    code: ExitCode.FORCED_SIGINT,
    meaning: 'forced: a second Ctrl+C before the command had wound down',
  },
  {
    code: ExitCode.FORCED_SIGTERM,
    meaning: 'forced: a second SIGTERM before the command had wound down',
  },
];

/** The table as help text lines. */
export function exitCodeLines(indent = '  '): string[] {
  return EXIT_CODE_TABLE.map(({ code, meaning }) => `${indent}${String(code).padEnd(5)}${meaning}`);
}
