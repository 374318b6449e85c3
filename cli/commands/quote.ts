/**
 * `finance-tui quote <amount> <from> <to>` and `finance-tui quote --pairs "100 USDC>ETH, 50 STRK>ETH"`:
 * what a swap would return right now. Read-only: nothing is signed or sent.
 *
 * Only light modules are imported up front, so `--help` and usage errors answer at once; the
 * aggregator client (TypeBox, ky), the settings and the stack load once the options parse.
 */
import { parseCommandArgs, parseNetworkFlag, refuseNegativeAmount } from '../headless/args.js';
import type { CommandContext, CommandRun } from '../headless/context.js';
import type { PairSpec } from '../core/quote.js';
import { parsePairList } from '../headless/pairs.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { renderQuote } from '../headless/quote-render.js';
import { checkPairCount } from '../core/actions/limits.js';
import { throwIfCancelled } from '../clients/cancel.js';
import { usageError } from '../../shared/errors.js';
import { parseSlippageBps } from '../../shared/slippage.js';
import type { Network } from '../../shared/tokens.js';

export const USAGE = `Usage: finance-tui quote <amount> <from> <to> [options]
       finance-tui quote --pairs "100 USDC>ETH, 50 STRK>ETH" [options]

Quotes a swap (or 2–3 swaps) through the aggregator. Amounts are in token units ("0.5" ETH);
tokens are symbols (ETH, STRK, USDC, USDC.e, USDT, DAI, WBTC) or addresses.

  --pairs LIST        2–3 pairs "AMOUNT FROM>TO", comma separated; one output token for all
                      is quoted in one batch request, otherwise the pairs are quoted in parallel
  --slippage PERCENT  tolerance for the minimum received, 0.01–50 (default from settings, 1)
  --network NAME      mainnet or sepolia (swaps are mainnet-only)
  --sandbox           use the local sandbox
  --json              one JSON document: expected output net of the service fee, fee, minimum
                      received, price impact, route, gas, slippage, network, sandbox
`;

interface QuoteOptions {
  pairs: PairSpec[];
  /** --pairs was used: the multi-swap rules apply even to the count */
  multi: boolean;
  slippageBps: number | undefined;
  network: Network | undefined;
  sandbox: boolean;
  help: boolean;
}

/** The string options of quote: the word after one of these is its value, not an argument. */
const VALUE_FLAGS = new Set(['--pairs', '--slippage', '--network']);

/** Flags and arguments → options; every mistake is a usage error naming the flag. */
export function parseQuoteOptions(argv: string[]): QuoteOptions {
  refuseNegativeAmount(argv, VALUE_FLAGS);
  const { values, positionals } = parseCommandArgs(argv, {
    pairs: { type: 'string' },
    slippage: { type: 'string' },
    network: { type: 'string' },
  });
  const help = values.help === true;
  const network = parseNetworkFlag(values.network);
  const slippageBps = values.slippage === undefined ? undefined : parseSlippageBps(values.slippage);
  let pairs: PairSpec[] = [];
  const multi = values.pairs !== undefined;
  if (multi) {
    if (positionals.length > 0)
      throw usageError('give either <amount> <from> <to> or --pairs, not both');
    pairs = parsePairList(values.pairs ?? '');
    checkPairCount(pairs.length, {
      label: '--pairs',
      hint: 'for one swap use: quote <amount> <from> <to>',
    });
  } else if (!help) {
    if (positionals.length !== 3)
      throw usageError(
        `expected <amount> <from> <to> (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}); see finance-tui quote --help`,
      );
    pairs = [
      { amount: positionals[0] ?? '', from: positionals[1] ?? '', to: positionals[2] ?? '' },
    ];
  }
  return { pairs, multi, slippageBps, network, sandbox: values.sandbox === true, help };
}

export const run: CommandRun = async (ctx: CommandContext) => {
  const opts = parseQuoteOptions(ctx.argv);
  // One document under --json, like every other answer: {"usage": "…"}.
  if (opts.help) return { data: { usage: USAGE }, human: () => USAGE };
  const { quote, quoteDeps } = await import('../core/quote.js');
  // --network sepolia: refused with --sandbox when the endpoints resolve, else by quote before any request.
  const data = await withEndpoints(
    ctx,
    { sandbox: opts.sandbox, ...(opts.network ? { network: opts.network } : {}) },
    (endpoints, call) => {
      // Ctrl+C while the sandbox was being found: stop here. Later, the requests carry the signal
      // themselves (no retry after an abort; see cli/clients/http.ts).
      throwIfCancelled(ctx.signal);
      return quote(
        { pairs: opts.pairs, multi: opts.multi, slippageBps: opts.slippageBps },
        quoteDeps(endpoints),
        call,
      );
    },
  );
  return { data, human: () => renderQuote(data) };
};
