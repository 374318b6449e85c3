/** `finance-tui multi-swap --pairs "100 USDC>ETH, 50 STRK>ETH" [--yes] …`: 2–3 swaps in one transaction. */
import type { CommandRun } from '../headless/context.js';
import { parsePairList } from '../headless/pairs.js';
import { checkPairCount } from '../core/actions/limits.js';
import { parseSigningArgs, runSigning, SIGNING_OPTIONS_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui multi-swap --pairs "100 USDC>ETH, 50 STRK>ETH" [options]

2–3 swaps in one transaction: approve1, swap1, approve2, swap2, … Pairs with one output token
are quoted in one batch request; otherwise one request per pair, in parallel. More than 3 pairs
is BATCH_LIMIT_EXCEEDED. Without --yes it shows the plan and signs nothing.

  --pairs LIST        2–3 pairs "AMOUNT FROM>TO", comma separated
${SIGNING_OPTIONS_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals } = parseSigningArgs(ctx.argv, {
    pairs: { type: 'string' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(
      `multi-swap takes its swaps in --pairs, not as arguments (got "${String(positionals[0]).slice(0, 40)}")`,
    );
  if (typeof values.pairs !== 'string')
    throw usageError('--pairs is required (e.g. --pairs "100 USDC>ETH, 50 STRK>ETH")');
  const pairs = parsePairList(values.pairs);
  checkPairCount(pairs.length, {
    label: '--pairs',
    hint: 'for one swap use: trade <amount> <from> <to>',
  });
  return runSigning(ctx, options, { kind: 'multi-swap', swaps: pairs });
};
