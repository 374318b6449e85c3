/**
 * The token registry per network (docs/contracts.md D). A sandbox uses the table of the network it
 * is shaped like (`finance-tui sandbox --network`, mainnet by default). Addresses are compared as
 * numbers: sources disagree on leading zeros and case.
 *
 * Sepolia: USDC (Circle's, 6 decimals) and WBTC (8 decimals) are the assets of Vesu v2's Sepolia
 * deployment (vesuxyz/vesu-v2 `deployment-sepolia.json` at f4d1eed6), cross-checked with starkzap's
 * Sepolia token presets; USDC.e is the bridged USDC of the same presets, a different token with its
 * own symbol (docs/decisions.md "Lending on Sepolia").
 */
import { AppError, ErrorCode } from './errors.js';
import { ADDRESS_BOUND, feltHex, parseHexFelt } from './felt.js';

/** The networks the client knows (a sandbox is shaped like one of them and uses its tables). */
export const NETWORKS = ['mainnet', 'sepolia'] as const;
export type Network = (typeof NETWORKS)[number];

/** Whether `value` names a network: the one check of a --network flag or a setting. */
export function isNetwork(value: unknown): value is Network {
  return (NETWORKS as readonly unknown[]).includes(value);
}

export interface Token {
  symbol: string;
  name: string;
  /** 0x + 64 lowercase hex digits: one canonical spelling for output and comparison */
  address: string;
  decimals: number;
}

/**
 * The registry's addresses (their one written form) as numbers, parsed once: the plan checks
 * compare every call's token, router and account with them (addressToBigInt, sameAddress), and
 * parsing the same text on each comparison was a fifth of a check's CPU (docs/benchmarks.md "Issue
 * 36, seventh round: the unit project").
 */
const REGISTRY_VALUES = new Map<string, bigint>();

function token(symbol: string, name: string, address: string, decimals: number): Token {
  const canonical = parseAddress(address);
  REGISTRY_VALUES.set(canonical, BigInt(canonical));
  return Object.freeze({ symbol, name, address: canonical, decimals });
}

const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

const REGISTRY: Record<Network, readonly Token[]> = {
  mainnet: Object.freeze([
    token('ETH', 'Ether', ETH, 18),
    token('STRK', 'Starknet Token', STRK, 18),
    token(
      'USDC',
      'USD Coin',
      '0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb',
      6,
    ),
    token(
      'USDC.e',
      'Bridged USD Coin',
      '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8',
      6,
    ),
    token(
      'USDT',
      'Tether USD',
      '0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8',
      6,
    ),
    token(
      'DAI',
      'Dai Stablecoin',
      '0x05574eb6b8789a91466f902c380d978e472db68170ff82a5b650b95a58ddf4ad',
      18,
    ),
    token(
      'WBTC',
      'Wrapped BTC',
      '0x03fe2b97c1fd336e750087d68b9b867997fd64a2661ff3ca5a7c771641e8e7ac',
      8,
    ),
  ]),
  sepolia: Object.freeze([
    token('ETH', 'Ether', ETH, 18),
    token('STRK', 'Starknet Token', STRK, 18),
    token(
      'USDC',
      'USD Coin',
      '0x0512feac6339ff7889822cb5aa2a86c848e9d392bb0e3e237c008674feed8343',
      6,
    ),
    token(
      'USDC.e',
      'Bridged USD Coin',
      '0x053b40a647cedfca6ca84f542a0fe36736031905a9639a7f19a3c1e66bfd5080',
      6,
    ),
    token(
      'WBTC',
      'Wrapped BTC',
      '0x04861ba938aed21f2cd7740acd3765ac4d2974783a3218367233de0153490cb6',
      8,
    ),
  ]),
};

/** A 0x-hex felt as a number (shared/felt.ts parseHexFelt: any padding, either case), or undefined. */
export function addressToBigInt(text: string): bigint | undefined {
  return REGISTRY_VALUES.get(text) ?? parseHexFelt(text);
}

/**
 * The one address validator: a Starknet address as typed or sent → 0x + 64 lower-case hex.
 * Not 0x-hex, zero, or not below 2^251 (the address range; shared/felt.ts ADDRESS_BOUND) is
 * INVALID_ADDRESS, `what` naming the field.
 */
export function parseAddress(text: string, what = 'address'): string {
  const value = parseHexFelt(text);
  if (value === undefined || value >= ADDRESS_BOUND) {
    const shown = typeof text === 'string' ? text.slice(0, 80) : String(text);
    throw new AppError(
      ErrorCode.INVALID_ADDRESS,
      `${what} "${shown}" is not a Starknet address (0x + up to 64 hex digits, below 2^251)`,
    );
  }
  if (value === 0n)
    throw new AppError(ErrorCode.INVALID_ADDRESS, `${what} must not be the zero address`);
  return feltHex(value);
}

export function sameAddress(a: string, b: string): boolean {
  const x = addressToBigInt(a);
  return x !== undefined && x === addressToBigInt(b);
}

export function listTokens(network: Network): readonly Token[] {
  return REGISTRY[network];
}

/**
 * Each network's tokens by address as a number (the first of a number wins, as a search would),
 * built on its first lookup: a receipt's transfers look up every event's token, and parsing the
 * registry's addresses again for each was a visible part of a trade's CPU (docs/benchmarks.md
 * "Issue 35, fifth round").
 */
const byAddress = new Map<Network, Map<bigint, Token>>();
function tokenAt(network: Network, value: bigint): Token | undefined {
  let index = byAddress.get(network);
  if (index === undefined) {
    index = new Map();
    for (const t of REGISTRY[network]) {
      const at = REGISTRY_VALUES.get(t.address) as bigint;
      if (!index.has(at)) index.set(at, t);
    }
    byAddress.set(network, index);
  }
  return index.get(value);
}

/** Lookup without throwing: a symbol (case-insensitive) or an address (compared as a number). */
export function findToken(network: Network, symbolOrAddress: string): Token | undefined {
  const key = symbolOrAddress.trim();
  const tokens = REGISTRY[network];
  if (/^0x/i.test(key)) {
    const value = addressToBigInt(key);
    return value === undefined ? undefined : tokenAt(network, value);
  }
  const upper = key.toUpperCase();
  return tokens.find((t) => t.symbol.toUpperCase() === upper);
}

/**
 * A message about the network, as a sandbox user should read it: a sandbox runs the registry (and
 * deployments) of the network it is shaped like, so the core words its lookups "on mainnet" (or
 * "on sepolia"); each face says "in the sandbox" instead, so no one on the sandbox is told they are
 * on the real network, and a refusal's "current network" names the sandbox and its shape.
 */
export function sandboxWording(text: string, network: Network = 'mainnet'): string {
  return text
    .replace(new RegExp(`\\bon ${network}\\b`, 'g'), 'in the sandbox')
    .replace(
      new RegExp(`\\(current network: ${network}\\)`, 'g'),
      `(current network: the sandbox, shaped like ${network})`,
    );
}

/** Lookup for user input: unknown → UNKNOWN_TOKEN naming the known symbols of that network. */
export function resolveToken(network: Network, symbolOrAddress: string): Token {
  const found = findToken(network, symbolOrAddress);
  if (found !== undefined) return found;
  const known = REGISTRY[network].map((t) => t.symbol).join(', ');
  throw new AppError(
    ErrorCode.UNKNOWN_TOKEN,
    `unknown token "${symbolOrAddress}" on ${network} (known: ${known})`,
    { details: { network, known: REGISTRY[network].map((t) => t.symbol) } },
  );
}
