/**
 * Sign-in through the agent (docs/architecture.md "Tool server"): login sends the code, verify
 * takes it; under an agent grant both are refused (the grant stands in for a session).
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { ToolDeps } from './deps.js';
import { inputs, outputs } from './schemas.js';

/** Sign-in through the agent under a grant: refused (the grant stands in for a session). */
function underGrantRefusal(): AppError {
  return new AppError(
    ErrorCode.GRANT_FORBIDDEN,
    'this tool server acts under an agent grant, not a session: it does not sign in; the person manages grants with finance-tui grant',
  );
}

export function register({ server, endpoints: ep, handle }: ToolDeps): void {
  server.registerTool(
    'login',
    {
      title: 'Send a sign-in code',
      description:
        "Sends a 6-digit sign-in code to the person's e-mail. Ask them to read it to you, then call verify.",
      inputSchema: inputs.login,
      outputSchema: outputs.login,
      annotations: {
        title: 'Send a sign-in code',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (input, ctx) =>
      handle(ctx, ['message'], async (call) => {
        if (ep.grant !== undefined) throw underGrantRefusal();
        const { login } = await import('../core/account.js');
        const result = await login(ep, input.email, call);
        return {
          ...result,
          next: 'ask the person for the 6-digit code from the mail, then call verify(email, code)',
        };
      }),
  );

  server.registerTool(
    'verify',
    {
      title: 'Sign in with the code',
      description:
        'Signs in with the code the person read from the sign-in mail and saves the session (it replaces any earlier one).',
      inputSchema: inputs.verify,
      outputSchema: outputs.verify,
      annotations: {
        title: 'Sign in with the code',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (input, ctx) =>
      handle(ctx, ['message'], async (call) => {
        if (ep.grant !== undefined) throw underGrantRefusal();
        const { verify } = await import('../core/account.js');
        const { sessionFile: _file, ...view } = await verify(ep, input.email, input.code, call);
        return { ...view, network: ep.networkName, sandbox: ep.sandbox };
      }),
  );
}
