/**
 * What the wallet's holdings are worth (docs/architecture.md "The action pipeline": pricing is
 * the core's, every face gets the same figures). A price is the aggregator's USD price of the
 * token on a route of the whole held amount into USDC (USDC itself: into ETH); a token it cannot
 * route has no price — shown as unpriced and left out of the total, never valued at 0.
 * Every token is priced in one parallel round.
 */
import { usdCentsAt } from '../../shared/fees.js';
import { findToken, type Network, sameAddress } from '../../shared/tokens.js';
import type { AggregatorClient } from '../clients/aggregator.js';
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

/**
 * The aggregator's USD price of `token` on a route of `amount` into USDC (USDC itself: into ETH),
 * as sent (display data, read with shared/fees.ts); undefined when it has no route or no price.
 * The one pricing rule: holdings and the spending caps (actions/caps.ts) both use it.
 */
export async function usdPriceOf(client: AggregatorClient, network: Network, token: string, amount: bigint, call: CallOptions = {}): Promise<unknown> {
  const [usdc, eth] = [findToken(network, 'USDC'), findToken(network, 'ETH')];
  const quoteIn = usdc !== undefined && sameAddress(token, usdc.address) ? eth : usdc;
  if (quoteIn === undefined || amount <= 0n) return undefined;
  return client.getRoute({ amount, tokenIn: token, tokenOut: quoteIn.address }, { signal: call.signal }).then(
    (route) => route.inputToken.price,
    () => undefined,
  );
}

/** The session wallet's non-zero balances, each with its USD value where the aggregator has a price. */
export async function holdings(endpoints: Endpoints, call: CallOptions = {}, now: () => number = Date.now): Promise<Holdings> {
  const held = (await readWalletBalances(endpoints, {}, call)).balances.filter((b) => b.baseUnits !== '0');
  const client = aggregatorFor(endpoints, { timeoutMs: 5000, retries: 1 });
  const tokens = await Promise.all(
    held.map(async (token): Promise<PricedHolding> => {
      const amount = BigInt(token.baseUnits);
      const price = await usdPriceOf(client, endpoints.network, token.address, amount, call);
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
