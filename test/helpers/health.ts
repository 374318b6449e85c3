/**
 * A health factor computed by hand, independently of the core, from the sandbox pool's prices and
 * max LTV (docs/commands.md "Lending": collateral value × max LTV / debt value, 4 decimals, rounded
 * down): what the whole-process lending tests hold the app's and the commands' figures to.
 */
const E18 = 10n ** 18n;
const USDC = 10n ** 6n;

/**
 * `collateralEth` whole ETH at `ethUsd` dollars against `debtUsdc` USDC base units (USDC at $1),
 * max LTV `maxLtvTenths` / 10; as the core words it ("1.6", "1.0666": trailing zeros dropped).
 */
export function healthByHand(
  collateralEth: bigint,
  ethUsd: bigint,
  debtUsdc: bigint,
  maxLtvTenths: bigint,
): string {
  const cv = collateralEth * ethUsd * E18;
  const dv = (debtUsdc * E18) / USDC;
  const hf = (cv * ((maxLtvTenths * E18) / 10n)) / dv;
  const four = hf / 10n ** 14n;
  const text = `${four / 10_000n}.${(four % 10_000n).toString().padStart(4, '0')}`;
  return text.replace(/\.?0+$/, '');
}
