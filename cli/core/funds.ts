/**
 * The wallet's balances (docs/architecture.md "Execution"), over the chain library
 * (cli/core/chain). Sending a token is an action of the pipeline (cli/core/actions), like every
 * other movement of money.
 */
import { formatAmount } from '../../shared/amount.js';
import { listTokens, resolveToken, type Network, type Token } from '../../shared/tokens.js';
import type { CallOptions } from './call.js';
import type { Endpoints, NetworkName } from './endpoints.js';
import { rpcUrlOf } from './execution.js';
import { requireSession, type Session } from './session.js';

/** An exact amount of a registry token: human decimal and base units (strings: JSON-safe). */
export interface TokenAmount {
  symbol: string;
  address: string;
  decimals: number;
  /** exact decimal, trailing zeros trimmed; a leading "-" when it left the account */
  amount: string;
  /** exact base units, signed like `amount` */
  baseUnits: string;
}

function tokenAmount(
  token: Pick<Token, 'symbol' | 'address' | 'decimals'>,
  value: bigint,
): TokenAmount {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return {
    symbol: token.symbol,
    address: token.address,
    decimals: token.decimals,
    amount: `${sign}${formatAmount(magnitude, token.decimals)}`,
    baseUnits: value.toString(),
  };
}

interface Where {
  email: string;
  address: string;
  network: NetworkName;
  sandbox: boolean;
}

const where = (endpoints: Endpoints, session: Session): Where => ({
  email: session.email,
  address: session.address,
  network: endpoints.networkName,
  sandbox: endpoints.sandbox,
});

function resolveTokens(network: Network, symbols: readonly string[] | undefined): readonly Token[] {
  if (symbols === undefined || symbols.length === 0) return listTokens(network);
  const seen = new Set<string>();
  return symbols
    .map((symbol) => resolveToken(network, symbol))
    .filter((token) => {
      if (seen.has(token.address)) return false;
      seen.add(token.address);
      return true;
    });
}

export interface BalanceResult extends Where {
  balances: TokenAmount[];
}

/** The session wallet's balances of `tokens` (symbols or addresses; default: the whole registry). */
export async function balances(
  endpoints: Endpoints,
  options: { tokens?: readonly string[]; now?: () => number } = {},
  call: CallOptions = {},
): Promise<BalanceResult> {
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const tokens = resolveTokens(endpoints.network, options.tokens);
  const [{ createChainReader, readBalances }, rpcUrl] = await Promise.all([
    import('./chain/index.js'),
    rpcUrlOf(endpoints),
  ]);
  const reader = createChainReader({
    address: session.address,
    rpcUrl,
    network: endpoints.network,
  });
  const read = await readBalances(reader, {
    tokens,
    ...(call.signal ? { signal: call.signal } : {}),
  });
  return {
    ...where(endpoints, session),
    balances: read.map(({ token, balance }) => tokenAmount(token, balance)),
  };
}
