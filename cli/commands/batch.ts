/**
 * `finance-tui batch --swap "AMOUNT FROM>TO" … --send "AMOUNT TOKEN>ADDRESS" … --supply "AMOUNT
 * TOKEN" … --stake "AMOUNT TOKEN>VALIDATOR" … [--yes]`: one multicall.
 */
import type { CommandRun } from '../headless/context.js';
import { parseArrowItem } from '../headless/pairs.js';
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
  const supplies = ((values.supply as string[] | undefined) ?? []).map((item) => {
    const match = /^(\S+)\s+(\S+)$/.exec(item.trim());
    if (match === null)
      throw usageError(
        `--supply item "${item.trim().slice(0, 80)}" is not "AMOUNT TOKEN" (e.g. "100 USDC")`,
      );
    return { amount: match[1] ?? '', token: match[2] ?? '' };
  });
  const stakes = ((values.stake as string[] | undefined) ?? []).map((item) => {
    // the validator may be a preset name with spaces ("Sandbox Alpha")
    const match = /^(\S+)\s+(\S+?)\s*>\s*(\S.*)$/.exec(item.trim());
    if (match === null)
      throw usageError(
        `--stake item "${item.trim().slice(0, 80)}" is not "AMOUNT TOKEN>VALIDATOR" (e.g. "100 STRK>Sandbox Alpha")`,
      );
    return { amount: match[1] ?? '', token: match[2] ?? '', validator: (match[3] ?? '').trim() };
  });
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
