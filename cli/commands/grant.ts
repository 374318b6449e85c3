/** `finance-tui grant`: the grant commands' usage (create, list, revoke). */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui grant create --daily "AMOUNT TOKEN" [--daily …] [--allow-recipient ADDRESS …]
                                --expires DURATION --out FILE [--sandbox] [--json]
       finance-tui grant list [--sandbox] [--json]
       finance-tui grant revoke ID [--sandbox] [--json]

An agent grant lets an AI agent's tool server (finance-tui mcp --grant FILE) sign without the
person, within limits the auth server holds: per-token amounts per rolling 24 hours, the
recipients it may pay, and an expiry. The server refuses, before signing, anything over them,
to another recipient, to a contract this product does not use, or after expiry or revocation.

  --daily "AMOUNT TOKEN"     e.g. "50 USDC": at most this much leaves in any 24 hours (repeat
                             for more tokens; a token not named may not leave at all)
  --allow-recipient ADDRESS  an address transfers may pay (repeat); none: transfers refused
  --expires DURATION         30m, 24h, 7d … (at most 90d)
  --out FILE                 where the grant's token is written (mode 0600); give the agent
                             only this file

Signed in as the person (finance-tui login / verify). The token is never printed.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help || positionals.length === 0)
    return { data: { usage: USAGE }, human: () => USAGE };
  throw usageError(
    `unknown grant command "${String(positionals[0]).slice(0, 40)}": create, list or revoke`,
  );
};
