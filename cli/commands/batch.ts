/**
 * `finance-tui batch --swap "AMOUNT FROM>TO" … --send "AMOUNT TOKEN>ADDRESS" … --supply "AMOUNT
 * TOKEN" … --stake "AMOUNT TOKEN>VALIDATOR" … [--yes]`: one multicall.
 */
import type { CommandRun } from '../headless/context.js';
import { LIST_ITEMS } from '../headless/pairs.js';
import { parseSigningArgs, runSigning, SIGNING_OPTIONS_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui batch [--swap "AMOUNT FROM>TO"]… [--send "AMOUNT TOKEN>ADDRESS"]…
                          [--supply "AMOUNT TOKEN"]… [--stake "AMOUNT TOKEN>VALIDATOR"]… [options]

Swaps (at most 3; one quote per swap), plain transfers, supplies to the main Vesu pool and stakes
(at most 5 of each) in one transaction, one review, one simulation, one signature: the swaps'
approve + swap pairs first, then the transfers, the stakes and the supplies, each kind in the
order given. A batch with a swap is mainnet-only; one with a supply needs a network with a Vesu
pool (mainnet); transfers and stakes run on mainnet and sepolia. Without --yes it shows the plan
and signs nothing.

  --swap "AMOUNT FROM>TO"       a swap, e.g. --swap "1 ETH>USDC" (repeat for more)
  --send "AMOUNT TOKEN>ADDRESS" a transfer, e.g. --send "5 USDC>0x…" (repeat for more)
  --supply "AMOUNT TOKEN"       a supply, e.g. --supply "100 USDC" (repeat for more)
  --stake "AMOUNT TOKEN>VALIDATOR"
                                a stake, e.g. --stake "100 STRK>Sandbox Alpha" (repeat for more)
${SIGNING_OPTIONS_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals } = parseSigningArgs(ctx.argv, {
    swap: { type: 'string', multiple: true },
    send: { type: 'string', multiple: true },
    supply: { type: 'string', multiple: true },
    stake: { type: 'string', multiple: true },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(
      `batch takes each item as one quoted flag value (--supply "100 USDC", --swap "1 ETH>USDC"), not as arguments (got "${String(positionals[0]).slice(0, 40)}")`,
    );
  const each = <T extends keyof typeof LIST_ITEMS>(flag: string, type: T) =>
    ((values[flag] as string[] | undefined) ?? []).map(
      (item) => LIST_ITEMS[type](item, `--${flag}`) as ReturnType<(typeof LIST_ITEMS)[T]>,
    );
  const swaps = each('swap', 'pairs');
  const sends = each('send', 'transfers');
  const supplies = each('supply', 'supplies');
  const stakes = each('stake', 'stakes');
  if (swaps.length + sends.length + supplies.length + stakes.length === 0)
    throw usageError('a batch needs at least one --swap, --send, --supply or --stake');
  return runSigning(ctx, options, {
    kind: 'batch',
    swaps,
    transfers: sends,
    ...(supplies.length > 0 ? { supplies } : {}),
    ...(stakes.length > 0 ? { stakes } : {}),
  });
};
