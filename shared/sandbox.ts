/**
 * Facts about the sandbox both the emulators and the client need (docs/sandbox-chain.md).
 */

/**
 * The sandbox market's unit of account: the aggregator emulator prices every token in it, so its
 * own USD price is 1 by definition and `sandbox price` refuses to move it.
 */
export const SANDBOX_MARKET_UNIT = 'USDC';

/**
 * The prices `sandbox price` takes, USD per whole token with 18 decimals: from $0.000001 to
 * $10,000,000. Beyond them a pool's reserve of the token shrinks toward a few base units (or swells
 * past anything the market holds), and quotes, the portfolio and the lending oracle stop making
 * sense (docs/sandbox-chain.md "Lending"). The chain emulator's knob refuses a price outside them;
 * the client says so before asking.
 */
const SANDBOX_PRICE_MIN = 10n ** 12n; // $0.000001
const SANDBOX_PRICE_MAX = 10n ** 25n; // $10,000,000
const SANDBOX_PRICE_RANGE = '$0.000001 to $10,000,000';

/** Why `usd` (18 decimals) is not a price the sandbox takes, or undefined when it is. */
export function sandboxPriceRefusal(usd: bigint): string | undefined {
  if (usd < SANDBOX_PRICE_MIN || usd > SANDBOX_PRICE_MAX)
    return `a sandbox price is from ${SANDBOX_PRICE_RANGE} per whole token`;
  return undefined;
}

/**
 * What `sandbox price --only` moves alone (docs/sandbox-chain.md "Prices"): the market the
 * aggregator quotes, Pragma's oracle, or the Vesu pool's oracle. Without it all three move.
 */
export const PRICE_SOURCES = ['aggregator', 'pragma', 'vesu'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];
