/**
 * `finance-tui sandbox price TOKEN USD [--only SOURCE] [--json]`: sets the running sandbox's USD
 * price of a token — the lending oracle's, Pragma's, and the market's (the aggregator emulator's
 * pools move to it); `--only` moves one of them alone, so they disagree (docs/sandbox-chain.md
 * "Prices"). Sandbox only, and only a running sandbox will do.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import { PRICE_SOURCES, type PriceSource } from '../../shared/sandbox.js';

export const USAGE = `Usage: finance-tui sandbox price TOKEN USD [--only aggregator|pragma|vesu] [--json]

Sets the running sandbox's price of TOKEN to USD dollars (an exact decimal, e.g. 2500 or 0.42):
the lending oracle and Pragma's oracle answer it at once, and the market's pools move to it, so
quotes and the portfolio follow. USDC is the market's unit of account and keeps its price of 1
there.

  --only SOURCE   move one source alone, so the others disagree with it: aggregator (the
                  market's pools, which the aggregator quotes), pragma (Pragma's oracle) or
                  vesu (the lending pool's oracle)
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, { only: { type: 'string' } });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError('expected TOKEN USD (e.g. ETH 2500); see finance-tui sandbox price --help');
  const only = values.only;
  if (only !== undefined && !(PRICE_SOURCES as readonly string[]).includes(only))
    throw usageError(`--only takes ${PRICE_SOURCES.join(', ')}`);
  const [token, usd] = positionals as [string, string];
  const { setSandboxPrice } = await import('../core/sandbox-control.js');
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) =>
      setSandboxPrice(endpoints, token, usd, call, only as PriceSource | undefined),
  );
  const where =
    data.only === undefined
      ? "on the sandbox's lending oracle and Pragma's oracle"
      : data.only === 'aggregator'
        ? "on the sandbox's market alone (the oracles keep theirs)"
        : data.only === 'pragma'
          ? "on Pragma's oracle alone"
          : "on the lending pool's oracle alone";
  return {
    data,
    human: () =>
      `${data.token} is now $${data.usd} ${where}` +
      (data.marketUsd === undefined ? '.\n' : `; the market quotes $${data.marketUsd}.\n`),
  };
};
