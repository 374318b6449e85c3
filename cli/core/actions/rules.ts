/**
 * The rules every action obeys, each written once (docs/architecture.md "The action pipeline").
 * The pipeline applies them before any request; the faces call the same functions to check what
 * a person types (the app's forms, the tool server's inputs), so a refusal reads the same
 * everywhere. Pure: no I/O.
 *
 * - swaps are mainnet-only (a sandbox counts as the network it is shaped like): NETWORK_UNSUPPORTED elsewhere;
 * - a token is a registry token of the network (symbol or address);
 * - an amount is an exact decimal of the token (shared/amount.ts parseAmount), above zero and
 *   within a u256; one in base units the same (shared/amount.ts checkBaseUnits);
 * - a swap's two tokens differ (pairProblem);
 * - a recipient is a Starknet address (not zero) that keeps the funds: not a registry token
 *   contract, not the router (neither hands tokens back), not the sender's own account;
 * - slippage is 0.01–50 % (shared/slippage.ts);
 * - a quote holds QUOTE_MAX_AGE_MS (30 s).
 */
import { parseAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import {
  listTokens,
  type Network,
  parseAddress,
  resolveToken,
  sameAddress,
  type Token,
} from '../../../shared/tokens.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';

export { parseSlippageBps, MIN_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS } from '../../../shared/slippage.js';

/**
 * How long a quote holds: older, it is fetched again before signing (checks.ts staleSwaps), a
 * plan's document says until when it holds, and the tool server executes without the person's
 * confirmation only a plan this fresh.
 */
export const QUOTE_MAX_AGE_MS = 30_000;

/** Slippage above this warns (form and review); above SLIPPAGE_CONFIRM_BPS it needs the typed word, like high impact. */
export const SLIPPAGE_WARN_BPS = 500;
export const SLIPPAGE_CONFIRM_BPS = 1500;

/** How loud a slippage is: 'high' above SLIPPAGE_WARN_BPS (warn), 'very-high' above SLIPPAGE_CONFIRM_BPS (typed word). */
export function slippageLevel(bps: number): 'ok' | 'high' | 'very-high' {
  if (bps > SLIPPAGE_CONFIRM_BPS) return 'very-high';
  return bps > SLIPPAGE_WARN_BPS ? 'high' : 'ok';
}

/**
 * Which networks each family of action runs on, in one place: swaps on mainnet only (the
 * aggregator serves mainnet; a sandbox is held to the network it is shaped like); native staking
 * and lending on mainnet and on the test network (Sepolia has its own staking contract,
 * shared/staking.ts, and its own Vesu v2 deployment, shared/vesu.ts).
 */
export const NETWORKS_OF = {
  swaps: ['mainnet'],
  staking: ['mainnet', 'sepolia'],
  // shared/vesu.ts: Vesu v2 is deployed on both (docs/decisions.md "Lending on Sepolia")
  lending: ['mainnet', 'sepolia'],
} as const satisfies Record<string, readonly Network[]>;

const FAMILY_WORDS: Record<keyof typeof NETWORKS_OF, string> = {
  swaps: 'swaps are',
  staking: 'staking is',
  lending: 'lending (Vesu) is',
};

/** NETWORK_UNSUPPORTED when `family` does not run on `network`. */
export function networkAllows(family: keyof typeof NETWORKS_OF, network: Network): void {
  const allowed: readonly Network[] = NETWORKS_OF[family];
  if (!allowed.includes(network)) {
    throw new AppError(
      ErrorCode.NETWORK_UNSUPPORTED,
      `${FAMILY_WORDS[family]} available on ${allowed.join(' and ')} only (current network: ${network})`,
    );
  }
}

/**
 * Whether swaps run on `network` (NETWORKS_OF): quotes, plans, prices and `status` ask here.
 */
export function swapsSupported(network: Network): boolean {
  return (NETWORKS_OF.swaps as readonly Network[]).includes(network);
}

/** Swaps run on mainnet only (and a mainnet-shaped sandbox). */
export function swapsAllowed(network: Network): void {
  networkAllows('swaps', network);
}

/**
 * The one reading of a typed amount: an exact decimal of `token` (shared/amount.ts parseAmount:
 * no rounding, no float), above zero and within a u256. Every face and the core read amounts
 * with it; amounts that arrive as base units are held to the same rule by checkBaseUnits.
 */
export function parsePositiveAmount(
  text: string,
  token: Pick<Token, 'symbol' | 'decimals'>,
): bigint {
  return parseAmount(text, token.decimals, { label: token.symbol });
}

/**
 * A swap's two tokens differ: why they do not, or undefined. Compared by address when both
 * sides carry one (case and padding do not matter), else by registry symbol (a form that holds
 * symbols only).
 */
export function pairProblem(
  from: Pick<Token, 'symbol'> & Partial<Pick<Token, 'address'>>,
  to: Pick<Token, 'symbol'> & Partial<Pick<Token, 'address'>>,
): string | undefined {
  const same =
    from.address !== undefined && to.address !== undefined
      ? sameAddress(from.address, to.address)
      : from.symbol.toUpperCase() === to.symbol.toUpperCase();
  return same ? `cannot swap ${from.symbol} for itself` : undefined;
}

export interface ResolvedPair {
  from: Token;
  to: Token;
  amount: bigint;
}

/** "100 USDC>ETH" as typed: registry tokens that differ, an exact positive amount of the input. */
export function resolvePair(
  network: Network,
  spec: { amount: string; from: string; to: string },
): ResolvedPair {
  const from = resolveToken(network, spec.from);
  const to = resolveToken(network, spec.to);
  const problem = pairProblem(from, to);
  if (problem !== undefined) throw usageError(problem);
  return { from, to, amount: parsePositiveAmount(spec.amount, from) };
}

interface RecipientContext {
  network: Network;
  /** the sender: sending to oneself moves nothing and costs gas */
  account?: string | undefined;
  router?: string | undefined;
}

/**
 * A transfer recipient: not an address (or zero) is INVALID_ADDRESS; one that would lose the
 * funds (a registry token contract, the router) or is the sender's own account is
 * INVALID_RECIPIENT. Returns the address as 0x + 64 hex.
 */
export function checkRecipient(recipient: string, context: RecipientContext): string {
  const to = parseAddress(
    typeof recipient === 'string' ? recipient.trim() : recipient,
    'recipient',
  );
  const refuse = (why: string): never => {
    throw new AppError(ErrorCode.INVALID_RECIPIENT, `refusing to send to ${to}: ${why}`, {
      details: { recipient: to },
    });
  };
  const token = listTokens(context.network).find((t) => sameAddress(t.address, to));
  if (token !== undefined)
    refuse(`it is the ${token.symbol} token contract, which cannot give the funds back`);
  if (sameAddress(to, context.router ?? ROUTER_ADDRESS)) refuse('it is the swap router');
  if (context.account !== undefined && sameAddress(to, context.account))
    refuse('it is your own wallet: nothing would move');
  return to;
}

interface ResolvedTransfer {
  token: Token;
  amount: bigint;
  /** 0x + 64 hex */
  to: string;
}

/** "5 USDC>0x…" as typed: a registry token, an exact positive amount, a recipient that keeps the funds. */
export function resolveTransfer(
  spec: { amount: string; token: string; to: string },
  context: RecipientContext,
): ResolvedTransfer {
  const token = resolveToken(context.network, spec.token);
  return {
    token,
    amount: parsePositiveAmount(spec.amount, token),
    to: checkRecipient(spec.to, context),
  };
}
