/**
 * Remedies as data: what a refusal needs done, named by the core in `details`, worded by each
 * face (docs/architecture.md "Layers": the core names no face's flag or command). Light at
 * import (the error type only): the headless error line loads it. cli/core/core-words.test.ts fails
 * when a string of the core names a flag or a command.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';

/**
 * The parameter of a request a refusal is about, as data (`details.field`): the core's message is
 * written to be read after the parameter's name, and each face names the parameter its own way —
 * headless: its flag (`--target`), the app: its form field, the tool server: the tool argument.
 */
export type Field =
  | 'target'
  | 'band'
  | 'minTrade'
  | 'validator'
  | 'maxFee'
  | 'daily'
  | 'allowRecipient'
  | 'expires'
  | 'out';

export const FIELDS: readonly Field[] = [
  'target',
  'band',
  'minTrade',
  'validator',
  'maxFee',
  'daily',
  'allowRecipient',
  'expires',
  'out',
];

/** A refusal about `field`: `message` reads after the field's name ("target: must add up to 100"). */
export function fieldError(
  field: Field,
  message: string,
  code: ErrorCode = ErrorCode.USAGE_ERROR,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(code, message, { details: { ...details, field } });
}

/** The same refusal, now known to be about `field` (a parse error of shared code, for one). */
export function aboutField(error: unknown, field: Field): unknown {
  if (!(error instanceof AppError)) return error;
  return new AppError(error.code, error.message, { details: { ...error.details, field } });
}

/** The details' field, when a refusal is about one. */
export function fieldOf(details: Record<string, unknown> | undefined): Field | undefined {
  const field = details?.field;
  return typeof field === 'string' && (FIELDS as readonly string[]).includes(field)
    ? (field as Field)
    : undefined;
}

/**
 * The remedies a refusal can name in `details.remedy` besides acknowledgments
 * (cli/core/actions/acknowledgments.ts) and sign-in: 'confirm' (consent to the plan shown),
 * 'history' (the history asks the chain how a sent transaction ended: do not send it again
 * before), 'start-sandbox' (a sandbox kept running in another terminal), 'sandbox' (use the
 * sandbox instead of the configured auth server).
 */
export type Remedy = 'confirm' | 'history' | 'start-sandbox' | 'sandbox';

/** The details' remedies (strings only). */
export function remediesOf(details: Record<string, unknown> | undefined): string[] {
  const remedy = details?.remedy;
  return Array.isArray(remedy) ? remedy.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * A session refusal's remedy, as data (AUTH_REQUIRED, SESSION_EXPIRED, ADDRESS_MISMATCH): the
 * person signs in again, as `email` where it is known, on the sandbox or not. The refusal's message
 * names no command: each face words the remedy (headless: the `finance-tui login` line,
 * cli/headless/output.ts; the tool server: that the person signs in — through its login/verify
 * tools with the code they read, or in a terminal — cli/mcp/untrusted.ts; the app: its sign-in
 * screen).
 */
interface SignInRemedy {
  remedy: ['sign-in'];
  signIn: { email: string | null; sandbox: boolean };
}

export function signInRemedy(email: string | undefined, sandbox: boolean): SignInRemedy {
  return { remedy: ['sign-in'], signIn: { email: email ?? null, sandbox } };
}

/** The details' sign-in remedy, when a refusal carries one. */
export function signInRemedyOf(
  details: Record<string, unknown> | undefined,
): SignInRemedy['signIn'] | undefined {
  const remedy = details?.remedy;
  const signIn = details?.signIn as { email?: unknown; sandbox?: unknown } | undefined;
  if (!Array.isArray(remedy) || !remedy.includes('sign-in') || typeof signIn !== 'object')
    return undefined;
  return {
    email: typeof signIn.email === 'string' ? signIn.email : null,
    sandbox: signIn.sandbox === true,
  };
}

/** The terminal command that signs in (the headless words, and the tool server's for the person). */
export function loginCommand(email: string | null | undefined, sandbox: boolean): string {
  return `finance-tui login ${email ?? '<email>'}${sandbox ? ' --sandbox' : ''}`;
}
