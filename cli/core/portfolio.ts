/**
 * What the wallet's holdings are worth (docs/architecture.md "The action pipeline": pricing is
 * the core's, every face gets the same figures). A price is the aggregator's USD price of the
 * token on a route of the whole held amount into USDC (USDC itself: into ETH); a token it cannot
 * route has no price — shown as unpriced and left out of the total, never valued at 0.
 * Every token is priced in one parallel round.
 */
import { usdCentsAt } from '../../shared/fees.js';
import { findToken, sameAddress } from '../../shared/tokens.js';
import type { CallOptions } from './call.js';
import type { Endpoints } from './endpoints.js';
import { balances as readWalletBalances, type TokenAmount } from './funds.js';
import { aggregatorFor } from './quote.js';

export interface PricedHolding extends TokenAmount {
  /** cents at the aggregator's price; undefined when it has no price for the token */
  usdCents: bigint | undefined;
}

export interface Holdings {
  /** the registry tokens the wallet holds (zero balances left out) */
  tokens: PricedHolding[];
  /** the priced tokens only */
  totalUsdCents: bigint;
  /** tokens without a price, left out of the total */
  unpriced: string[];
  asOf: string;
}

/** The session wallet's non-zero balances, each with its USD value where the aggregator has a price. */
export async function holdings(endpoints: Endpoints, call: CallOptions = {}, now: () => number = Date.now): Promise<Holdings> {
  const held = (await readWalletBalances(endpoints, {}, call)).balances.filter((b) => b.baseUnits !== '0');
  const client = aggregatorFor(endpoints, { timeoutMs: 5000, retries: 1 });
  const [usdc, eth] = [findToken(endpoints.network, 'USDC'), findToken(endpoints.network, 'ETH')];
  const tokens = await Promise.all(
    held.map(async (token): Promise<PricedHolding> => {
      const amount = BigInt(token.baseUnits);
      const quoteIn = usdc !== undefined && sameAddress(token.address, usdc.address) ? eth : usdc;
      const price =
        quoteIn === undefined
          ? undefined
          : await client.getRoute({ amount, tokenIn: token.address, tokenOut: quoteIn.address }, { signal: call.signal }).then(
              (route) => route.inputToken.price,
              () => undefined,
            );
      return { ...token, usdCents: usdCentsAt(amount, token.decimals, price) };
    }),
  );
  return {
    tokens,
    totalUsdCents: tokens.reduce((sum, t) => sum + (t.usdCents ?? 0n), 0n),
    unpriced: tokens.filter((t) => t.usdCents === undefined).map((t) => t.symbol),
    asOf: new Date(now()).toISOString(),
  };
}
