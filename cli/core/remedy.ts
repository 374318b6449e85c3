/**
 * Remedies as data: what a refusal needs done, named by the core in `details`, worded by each
 * face (docs/architecture.md "Layers": the core names no face's flag or command). Light at
 * import (no imports): the headless error line loads it.
 */

/**
 * A session refusal's remedy, as data (AUTH_REQUIRED, SESSION_EXPIRED, ADDRESS_MISMATCH): the
 * person signs in again, as `email` where it is known, on the sandbox or not. The refusal's message
 * names no command: each face words the remedy (headless: the `finance-tui login` line,
 * cli/headless/output.ts; the tool server: that the person signs in — through its login/verify
 * tools with the code they read, or in a terminal — cli/mcp/untrusted.ts; the app: its sign-in
 * screen).
 */
export interface SignInRemedy {
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
