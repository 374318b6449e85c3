/**
 * What a grant token may have signed (docs/server-api.md "Agent grants"): only a SNIP-9 v2
 * outside execution (the typed data the paymaster builds, docs/contracts.md C), decoded into its
 * calls, each of which the server understands:
 *
 * - a registry token's `transfer(recipient, amount)` to one of the grant's recipients — or, as
 *   the last call, to the paymaster's fee recipient (its forwarder, learned from the paymaster's
 *   own build answers through this server): the amount is an outflow of that token;
 * - a registry token's `approve(spender, amount)` to a known contract that is not a token: the
 *   amount is an outflow (what the spender may then take);
 * - the swap router's `swap` paying the wallet itself (the calldata's destination);
 * - a preset staking pool's `enter_delegation_pool`, `add_to_delegation_pool`,
 *   `exit_delegation_pool_intent`, `exit_delegation_pool_action` and `claim_rewards`, for the
 *   wallet itself (reward address and pool member);
 * - a known Vesu pool's `modify_position` for the wallet itself (`user`);
 * - a vToken's `deposit`, `withdraw` and `redeem` for the wallet itself, where the request proves
 *   the vToken by its deploy address (server/routes/sign.ts withProvenVTokens).
 *
 * Anything else — another contract, another entry point, another shape of typed data, a
 * recipient or member that is not the wallet — is refused before anything is charged or signed.
 * The known contracts are the shared list (shared/known-contracts.ts), never a copy.
 */
import { AppError, ErrorCode } from '../shared/errors.js';
import { fromU256, SELECTOR, selectorOf } from '../shared/erc20.js';
import { parseFelt } from '../shared/felt.js';
import type { KnownContract } from '../shared/known-contracts.js';
import { POOL_SELECTOR } from '../shared/staking.js';
import { decodeSwapCalldataTail } from '../shared/swap-calldata.js';
import {
  VESU_POOL_SELECTOR,
  type VTokenProof,
  vTokenProofHolds,
  VTOKEN_SELECTOR,
} from '../shared/vesu.js';
import { printable } from '../shared/printable.js';

/** SNIP-9 v2 as the paymaster builds it (docs/contracts.md C): the types must be exactly these. */
const OUTSIDE_EXECUTION_TYPES = {
  OutsideExecution: [
    { name: 'Caller', type: 'ContractAddress' },
    { name: 'Nonce', type: 'felt' },
    { name: 'Execute After', type: 'u128' },
    { name: 'Execute Before', type: 'u128' },
    { name: 'Calls', type: 'Call*' },
  ],
  Call: [
    { name: 'To', type: 'ContractAddress' },
    { name: 'Selector', type: 'selector' },
    { name: 'Calldata', type: 'felt*' },
  ],
  StarknetDomain: [
    { name: 'name', type: 'shortstring' },
    { name: 'version', type: 'shortstring' },
    { name: 'chainId', type: 'shortstring' },
    { name: 'revision', type: 'shortstring' },
  ],
} as const;

const SWAP_SELECTOR = selectorOf('swap');

export interface DecodedCall {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

interface GrantScope {
  walletAddress: string;
  recipients: readonly string[];
  /** the known contracts by address (shared/known-contracts.ts) */
  known: ReadonlyMap<string, KnownContract>;
  /** addresses the paymaster names as its fee recipient (learned from its build answers) */
  feeRecipients: ReadonlySet<string>;
}

function refuse(code: ErrorCode, message: string): never {
  throw new AppError(code, message);
}

function notUnderstood(reason: string): never {
  refuse(
    ErrorCode.GRANT_CALL_NOT_ALLOWED,
    `Under a grant the server signs only an outside execution (SNIP-9 v2) of calls it understands: ${reason}`,
  );
}

const hex64 = (value: bigint): string => `0x${value.toString(16).padStart(64, '0')}`;

function feltOf(value: unknown, where: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string') {
    const felt = parseFelt(value);
    if (felt !== undefined) return felt;
  }
  return notUnderstood(`${where} is not a felt`);
}

function sameFields(actual: unknown, expected: readonly { name: string; type: string }[]): boolean {
  if (!Array.isArray(actual) || actual.length !== expected.length) return false;
  return expected.every((field, i) => {
    const got = actual[i] as Record<string, unknown> | undefined;
    return (
      got !== undefined &&
      got.name === field.name &&
      got.type === field.type &&
      Object.keys(got).length === 2
    );
  });
}

/**
 * The calls of a checked copy of typed data (server/typed-data-bounds.ts checkTypedData), or a
 * refusal when it is not exactly a SNIP-9 v2 outside execution.
 */
export function outsideExecutionCalls(data: {
  types: Record<string, unknown>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}): DecodedCall[] {
  const typeNames = Object.keys(data.types).sort();
  if (
    data.primaryType !== 'OutsideExecution' ||
    typeNames.join(',') !== Object.keys(OUTSIDE_EXECUTION_TYPES).sort().join(',') ||
    !Object.entries(OUTSIDE_EXECUTION_TYPES).every(([name, fields]) =>
      sameFields(data.types[name], fields),
    )
  )
    notUnderstood('the typed data is not an OutsideExecution of SNIP-9 v2');
  if (
    data.domain.name !== 'Account.execute_from_outside' ||
    String(data.domain.version) !== '2' ||
    String(data.domain.revision) !== '1'
  )
    notUnderstood(
      'the typed data is not in the domain of SNIP-9 v2 (Account.execute_from_outside, version 2)',
    );
  const calls = data.message.Calls;
  if (!Array.isArray(calls) || calls.length === 0) notUnderstood('it holds no calls');
  return calls.map((raw, i) => {
    const call = raw as Record<string, unknown>;
    const selectorText = call.Selector;
    // a `selector` field is a name (hashed by sn_keccak) or its felt in 0x-hex, read as the hash
    // reads it: starknet.js hashes any other text (decimal digits, a number) as a name, so what
    // this check would read as a number is not what would be signed
    if (typeof selectorText !== 'string' || !/^(0x|[A-Za-z_])/i.test(selectorText))
      notUnderstood(`call ${i + 1}'s selector is neither 0x-hex nor an entry point's name`);
    const selector = /^0x/i.test(selectorText)
      ? feltOf(selectorText, `call ${i + 1}'s selector`)
      : selectorOf(selectorText);
    const calldata = call.Calldata;
    if (!Array.isArray(calldata)) notUnderstood(`call ${i + 1} has no calldata list`);
    return {
      to: feltOf(call.To, `call ${i + 1}'s contract`),
      selector,
      calldata: calldata.map((felt, k) => feltOf(felt, `call ${i + 1}'s calldata[${k}]`)),
    };
  });
}

/**
 * How long a signature under a grant may be sent for, at most: a paymaster's build gives its
 * outside execution an hour (docs/contracts.md C), and five minutes more cover clocks that differ.
 */
export const GRANT_SIGNATURE_WINDOW_MS = 65 * 60 * 1000;

/**
 * Until when (epoch ms) a signature of this outside execution can be sent: its `Execute Before`,
 * refused when later than GRANT_SIGNATURE_WINDOW_MS from now. A signature handed out can be sent
 * until then whatever happens to the grant (revoked, expired, its day over), so the ledger holds
 * its charge until 24 h after it (server/grants.ts): without the bound, signatures gathered day
 * after day and sent together would move many days' amounts at once.
 */
export function executableUntil(message: Record<string, unknown>, nowMs: number): number {
  const before = feltOf(message['Execute Before'], "the outside execution's Execute Before");
  const latest = BigInt(Math.floor((nowMs + GRANT_SIGNATURE_WINDOW_MS) / 1000));
  if (before > latest)
    refuse(
      ErrorCode.GRANT_CALL_NOT_ALLOWED,
      `Under a grant a signature may be sent for at most ${GRANT_SIGNATURE_WINDOW_MS / 60_000} minutes: this outside execution's Execute Before is later; nothing was signed`,
    );
  return Number(before) * 1000;
}

function amountOf(low: bigint | undefined, high: bigint | undefined, where: string): bigint {
  const amount = low === undefined || high === undefined ? undefined : fromU256(low, high);
  if (amount === undefined) notUnderstood(`${where} is not a u256 amount`);
  return amount;
}

/**
 * The outflows (token address → amount) of `calls` under `scope`, or the refusal of the first
 * call the grant does not allow.
 */
export function grantOutflows(
  calls: readonly DecodedCall[],
  scope: GrantScope,
): Map<string, bigint> {
  const wallet = BigInt(scope.walletAddress);
  const outflows = new Map<string, bigint>();
  const add = (token: string, amount: bigint): void => {
    outflows.set(token, (outflows.get(token) ?? 0n) + amount);
  };
  const forWallet = (value: bigint | undefined, what: string, contract: KnownContract): void => {
    if (value !== wallet)
      refuse(
        ErrorCode.GRANT_CALL_NOT_ALLOWED,
        `A call to ${contract.name} names ${what} other than the wallet itself; a grant does not allow it`,
      );
  };
  calls.forEach((call, index) => {
    const to = hex64(call.to);
    const contract = scope.known.get(to);
    if (contract === undefined)
      refuse(
        ErrorCode.GRANT_CALL_NOT_ALLOWED,
        `Call ${index + 1} goes to ${to}, which is not a contract this product uses (tokens, the swap router, staking pools, Vesu pools and the vTokens a proof shows); a grant does not allow it`,
      );
    const data = call.calldata;
    switch (contract.kind) {
      case 'token': {
        if (call.selector === SELECTOR.transfer) {
          if (data.length !== 3)
            notUnderstood(`call ${index + 1}'s transfer is not (recipient, u256)`);
          const recipient = hex64(data[0] as bigint);
          const amount = amountOf(data[1], data[2], `call ${index + 1}'s transfer amount`);
          const isFee = index === calls.length - 1 && scope.feeRecipients.has(recipient);
          if (!scope.recipients.includes(recipient) && !isFee)
            refuse(
              ErrorCode.GRANT_RECIPIENT_NOT_ALLOWED,
              `A transfer of ${contract.name} to ${recipient}, which is not among the grant's recipients; the person can make a grant that lists it`,
            );
          add(to, amount);
          return;
        }
        if (call.selector === SELECTOR.approve) {
          if (data.length !== 3)
            notUnderstood(`call ${index + 1}'s approve is not (spender, u256)`);
          const spender = hex64(data[0] as bigint);
          const kind = scope.known.get(spender)?.kind;
          if (kind === undefined || kind === 'token')
            refuse(
              ErrorCode.GRANT_CALL_NOT_ALLOWED,
              `An approval of ${contract.name} for ${spender}, which is not a contract this product uses; a grant does not allow it`,
            );
          add(to, amountOf(data[1], data[2], `call ${index + 1}'s approve amount`));
          return;
        }
        return refuse(
          ErrorCode.GRANT_CALL_NOT_ALLOWED,
          `Call ${index + 1} to ${contract.name} is neither transfer nor approve; a grant allows only those on a token`,
        );
      }
      case 'router': {
        if (call.selector !== SWAP_SELECTOR)
          refuse(
            ErrorCode.GRANT_CALL_NOT_ALLOWED,
            `Call ${index + 1} to the swap router is not a swap`,
          );
        let destination: bigint;
        try {
          destination = decodeSwapCalldataTail(
            data.map((felt) => `0x${felt.toString(16)}`),
          ).destination;
        } catch {
          return notUnderstood(`call ${index + 1}'s swap calldata is not the router's layout`);
        }
        forWallet(destination, 'a destination', contract);
        return;
      }
      case 'staking-pool': {
        if (call.selector === POOL_SELECTOR.enter_delegation_pool)
          return forWallet(data[0], 'a reward address', contract);
        if (
          call.selector === POOL_SELECTOR.add_to_delegation_pool ||
          call.selector === POOL_SELECTOR.exit_delegation_pool_action ||
          call.selector === POOL_SELECTOR.claim_rewards
        )
          return forWallet(data[0], 'a pool member', contract);
        if (call.selector === POOL_SELECTOR.exit_delegation_pool_intent) return undefined;
        return refuse(
          ErrorCode.GRANT_CALL_NOT_ALLOWED,
          `Call ${index + 1} to ${contract.name} is not one a grant allows (stake, add, exit, claim)`,
        );
      }
      case 'vesu-pool': {
        if (call.selector !== VESU_POOL_SELECTOR.modify_position)
          refuse(
            ErrorCode.GRANT_CALL_NOT_ALLOWED,
            `Call ${index + 1} to ${contract.name} is not modify_position`,
          );
        // ModifyPositionParams: collateral_asset, debt_asset, user, …
        return forWallet(data[2], 'a user', contract);
      }
      case 'vesu-vtoken': {
        // ERC-4626: deposit(assets: u256, receiver), withdraw and redeem(u256, receiver, owner);
        // what leaves the wallet is the asset's approval, charged above
        if (call.selector === VTOKEN_SELECTOR.deposit)
          return forWallet(data.length === 3 ? data[2] : undefined, 'a receiver', contract);
        if (
          call.selector === VTOKEN_SELECTOR.withdraw ||
          call.selector === VTOKEN_SELECTOR.redeem
        ) {
          forWallet(data.length === 4 ? data[2] : undefined, 'a receiver', contract);
          return forWallet(data[3], 'an owner', contract);
        }
        return refuse(
          ErrorCode.GRANT_CALL_NOT_ALLOWED,
          `Call ${index + 1} to ${contract.name} is not one a grant allows (deposit, withdraw, redeem)`,
        );
      }
      default:
        return refuse(
          ErrorCode.GRANT_CALL_NOT_ALLOWED,
          `Call ${index + 1} goes to ${contract.name}, which a grant does not call`,
        );
    }
  });
  return outflows;
}

/** Proofs already shown to hold (a canonical key each), so an honest client's repeats cost no hashing. */
const PROVEN_CACHE_SIZE = 256;
const provenCache = new Map<string, KnownContract>();

/**
 * Pedersen hashes one request's new proofs may cost (docs/server-security.md "Typed data"): a
 * proof's address is a chain over its constructor calldata (name, symbol, pool, asset, debt asset)
 * and five more, ~1.2–2 ms each on one core. 48 is three proofs of a real vToken's size (words of
 * one ByteArray chunk each: 14) — a batch of three supplies — or one of the largest words allowed
 * (30), so the proofs hold the event loop about as long as the typed data's own bound (~0.1 s).
 * Proofs already shown cost nothing.
 */
export const MAX_PROOF_HASHES = 48;
const proofHashes = (proof: VTokenProof): number => proof.name.length + proof.symbol.length + 8;

/**
 * The known contracts and the vTokens the request proves (docs/server-api.md "Agent grants"): the
 * server reads no chain, so the client sends each vToken's deploy-address preimage and the server
 * recomputes the address from its own pinned factory, known pool and registry asset
 * (shared/vesu.ts vTokenProofHolds; the client's side: cli/core/vtoken-origin.ts). A proof that
 * does not hold, or names no contract the calls name (`named`: their targets and calldata), refuses
 * the request before any hashing it did not need: a client that sends one is mistaken or hostile,
 * and nothing is signed. The work is bounded: MAX_PROOF_HASHES per request for proofs not shown
 * before, at most MAX_VTOKEN_PROOFS proofs (the schema).
 */
export function withProvenVTokens(
  known: ReadonlyMap<string, KnownContract>,
  proofs: readonly VTokenProof[],
  named?: ReadonlySet<string>,
): ReadonlyMap<string, KnownContract> {
  if (proofs.length === 0) return known;
  const refuse = (proof: VTokenProof, why: string): never => {
    throw new AppError(
      ErrorCode.GRANT_CALL_NOT_ALLOWED,
      `The proof sent for ${printable(proof.vToken)} ${why}; nothing was signed`,
    );
  };
  const all = new Map(known);
  let work = 0;
  for (const proof of proofs) {
    const value = parseFelt(proof.vToken);
    const address = value === undefined ? undefined : hex64(value);
    if (address === undefined || (named !== undefined && !named.has(address)))
      refuse(proof, 'is for no contract these calls name');
    const key = JSON.stringify([
      proof.vToken,
      proof.pool,
      proof.asset,
      proof.debtAsset,
      proof.classHash,
      proof.name,
      proof.symbol,
    ]).toLowerCase();
    let contract = provenCache.get(key);
    if (contract === undefined) {
      work += proofHashes(proof);
      if (work > MAX_PROOF_HASHES)
        refuse(
          proof,
          `is more than one signing proves at once (${MAX_PROOF_HASHES} hashes); sign fewer vToken calls at a time`,
        );
      const shown = vTokenProofHolds(proof);
      if (shown === undefined)
        return refuse(proof, "does not show a vToken a known Vesu pool's factory deploys");
      contract = {
        kind: 'vesu-vtoken',
        address: address as string,
        name: `the ${shown.token.symbol} vToken of the Vesu ${shown.pool.name} pool`,
      };
      if (provenCache.size >= PROVEN_CACHE_SIZE)
        provenCache.delete(provenCache.keys().next().value as string);
      provenCache.set(key, contract);
    }
    if (!all.has(contract.address)) all.set(contract.address, contract);
  }
  return all;
}

/** What a request's calls name: their targets and every calldata felt (lower-case 0x + 64 hex). */
export function namedBy(calls: readonly DecodedCall[]): Set<string> {
  return new Set(calls.flatMap((call) => [call.to, ...call.calldata].map(hex64)));
}
