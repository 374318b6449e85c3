/**
 * Facts about the sandbox both the emulators and the client need (docs/sandbox-chain.md).
 */

/**
 * The sandbox market's unit of account: the aggregator emulator prices every token in it, so its
 * own USD price is 1 by definition and `sandbox price` refuses to move it.
 */
export const SANDBOX_MARKET_UNIT = 'USDC';
