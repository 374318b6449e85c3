/**
 * The sandbox paymaster's prices and fees (docs/sandbox-chain.md "SNIP-29 paymaster"): the gas tokens it
 * takes with their STRK prices, and SNIP-29's FEE_ESTIMATE of a gas usage in a fee mode.
 */
import { listTokens } from '../../../shared/tokens.js';
import type { Chain } from '../chain.js';
import { hex } from '../executor.js';
import { feeInFri, friToToken, type GasUsage, suggestedMax } from '../gas.js';
import { refuse } from './errors.js';
import type { FeeModeParam } from './params.js';

/** SNIP-29's getSupportedTokens: every registry token the chain prices in STRK. */
export function supportedTokens(chain: Chain): Array<{
  token_address: string;
  decimals: number;
  price_in_strk: string;
}> {
  const prices = chain.strkPrices();
  return listTokens(chain.network).flatMap((token) => {
    const price = prices.get(token.address);
    return price === undefined
      ? []
      : [
          {
            token_address: hex(BigInt(token.address)),
            decimals: token.decimals,
            price_in_strk: hex(price),
          },
        ];
  });
}

/** The fee of `usage` in `feeMode`: SNIP-29's FEE_ESTIMATE, and the maximum in gas-token units. */
export function feeOf(
  chain: Chain,
  usage: GasUsage,
  feeMode: FeeModeParam,
): { fee: Record<string, string>; max: bigint } {
  const estimatedStrk = feeInFri(usage, chain.gasPrices);
  const maxStrk = suggestedMax(estimatedStrk);
  if (feeMode.mode === 'sponsored') {
    const fee = {
      gas_token_price_in_strk: hex(10n ** 18n),
      estimated_fee_in_strk: hex(estimatedStrk),
      estimated_fee_in_gas_token: hex(estimatedStrk),
      suggested_max_fee_in_strk: hex(maxStrk),
      suggested_max_fee_in_gas_token: hex(maxStrk),
    };
    return { fee, max: maxStrk };
  }
  const price = chain.strkPrices().get(feeMode.token.address);
  if (price === undefined)
    throw refuse('TOKEN_NOT_SUPPORTED', `no price for ${feeMode.token.symbol}`);
  const max = friToToken(maxStrk, feeMode.token, price);
  const fee = {
    gas_token_price_in_strk: hex(price),
    estimated_fee_in_strk: hex(estimatedStrk),
    estimated_fee_in_gas_token: hex(friToToken(estimatedStrk, feeMode.token, price)),
    suggested_max_fee_in_strk: hex(maxStrk),
    suggested_max_fee_in_gas_token: hex(max),
  };
  return { fee, max };
}
