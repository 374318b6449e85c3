/** `finance-tui batch --swap "AMOUNT FROM>TO" … --send "AMOUNT TOKEN>ADDRESS" … [--yes]`: one multicall. */
import type { CommandRun } from '../headless/context.js';
import { parseArrowItem } from '../headless/pairs.js';
import { parseSigningArgs, runSigning, SIGNING_OPTIONS_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui batch [--swap "AMOUNT FROM>TO"]… [--send "AMOUNT TOKEN>ADDRESS"]… [options]

Swaps (at most 3; one quote per swap) and plain transfers (at most 5) in one transaction: the
swaps' approve + swap pairs first, then the transfers, in the order given. A batch of transfers
only works on any network; a batch with a swap is mainnet-only. Without --yes it shows the plan
and signs nothing.

  --swap "AMOUNT FROM>TO"       a swap, e.g. --swap "1 ETH>USDC" (repeat for more)
  --send "AMOUNT TOKEN>ADDRESS" a transfer, e.g. --send "5 USDC>0x…" (repeat for more)
${SIGNING_OPTIONS_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals } = parseSigningArgs(ctx.argv, {
    swap: { type: 'string', multiple: true },
    send: { type: 'string', multiple: true },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(
      `batch takes its items as --swap and --send, not as arguments (got "${String(positionals[0]).slice(0, 40)}")`,
    );
  const swaps = ((values.swap as string[] | undefined) ?? []).map((item) => {
    const { amount, left, right } = parseArrowItem(
      item,
      '--swap',
      'AMOUNT FROM>TO (e.g. "1 ETH>USDC")',
    );
    return { amount, from: left, to: right };
  });
  const sends = ((values.send as string[] | undefined) ?? []).map((item) => {
    const { amount, left, right } = parseArrowItem(
      item,
      '--send',
      'AMOUNT TOKEN>ADDRESS (e.g. "5 USDC>0x…")',
    );
    return { amount, token: left, to: right };
  });
  if (swaps.length + sends.length === 0)
    throw usageError('a batch needs at least one --swap or --send');
  return runSigning(ctx, options, { kind: 'batch', swaps, transfers: sends });
};
