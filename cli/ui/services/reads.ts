/**
 * The app's reads (docs/architecture.md "Interactive app"): balances, the staking and lending
 * positions, the portfolio, a quote and the status, each over the core function the headless
 * command of the same name calls.
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { millisecondsKnob } from '../../platform/knobs.js';
import type { Balances } from '../services.js';
import type { ServicesModule } from './root.js';

/**
 * `FINANCE_TUI_LIVE_READ_MS`, a test knob (docs/commands.md): whole milliseconds from 100 to
 * 600000 between an open Lending or Staking screen's reads, so a test that watches a position
 * change without a key waits a second rather than fifteen. Unset: undefined, the screens' own
 * interval (hooks/use-periodic-read.ts LIVE_READ_MS); anything else: CONFIG_ERROR before the app
 * draws (platform/knobs.ts millisecondsKnob).
 */
export function liveReadKnob(env: NodeJS.ProcessEnv): number | undefined {
  return millisecondsKnob(env, 'FINANCE_TUI_LIVE_READ_MS', { min: 100, max: 600_000 });
}

export const registerReads: ServicesModule<
  'liveReadMs' | 'balances' | 'staking' | 'lending' | 'portfolio' | 'quote' | 'status'
> = (root) => ({
  liveReadMs: liveReadKnob(root.env),

  async balances(_current, { signal }): Promise<Balances> {
    const { e } = root.ready();
    const { holdings } = await import('../../core/portfolio.js');
    const held = await holdings(e, { signal });
    return {
      available: true,
      tokens: held.tokens.map((t) => ({
        symbol: t.symbol,
        decimals: t.decimals,
        amount: BigInt(t.baseUnits),
        usdCents: t.usdCents,
      })),
      totalUsdCents: held.totalUsdCents,
      asOf: held.asOf,
    };
  },

  async staking({ signal }) {
    const { e } = root.ready();
    const { stakingPositions } = await import('../../core/staking.js');
    return stakingPositions(e, {}, { signal });
  },

  async lending({ signal }) {
    const { e } = root.ready();
    const { lendingPositions } = await import('../../core/lending.js');
    return lendingPositions(e, {}, { signal });
  },

  async portfolio({ signal, fresh }) {
    const { e } = root.ready();
    const { portfolio } = await import('../../core/portfolio.js');
    return portfolio(e, fresh === true ? { maxAgeMs: 0 } : {}, { signal });
  },

  async quote(request, { signal }) {
    const { m, e } = root.ready();
    const result = await m.quote.quote(
      {
        pairs: [{ amount: request.amount, from: request.from, to: request.to }],
        multi: false,
        slippageBps: request.slippageBps,
      },
      m.quote.quoteDeps(e),
      { signal },
    );
    const [quote] = result.quotes;
    if (!quote) throw new AppError(ErrorCode.INVALID_RESPONSE, 'no quote in the answer');
    return quote;
  },

  async status({ signal }) {
    const { m, e } = root.ready();
    return m.status.statusOf(e, await m.status.loadStatusDeps(), { signal });
  },
});
