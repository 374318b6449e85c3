/**
 * The SNIP-29 paymaster of the sandbox chain (docs/contracts.md C, docs/sandbox-chain.md), as
 * AVNU serves it: isAvailable, getSupportedTokens, buildTransaction and executeTransaction (types
 * invoke, deploy_and_invoke and deploy), trackingIdToLatestHash.
 *
 * Build returns SNIP-9 v2 outside-execution typed data (SNIP-12 revision 1, domain chain id
 * SN_SANDBOX, Caller = the forwarder, a fresh random Nonce, time bounds) holding the user's calls
 * and, in default fee mode, one last gas-token `transfer(forwarder, suggested_max_fee_in_gas_token)`.
 * It remembers what it built under the Nonce (bounded, until execute_before). Execute accepts only
 * that typed data: it is compared field by field with the stored copy BEFORE anything is hashed,
 * so untrusted typed data is never hashed (docs/execution.md "SNIP-12 hashing cost"); the
 * signature is then checked over the stored copy's message hash against the account's key (the
 * deployed account's, or the deployment's for deploy_and_invoke), both y parities.
 *
 * Build simulates the calls, as AVNU does: the user's calls and, in default fee mode, the fee
 * transfer run as the account would run them (deployed first for deploy_and_invoke) on a view that
 * is thrown away; a call list that would revert is refused there with 156
 * TRANSACTION_EXECUTION_ERROR, `data.execution_error` the revert reason, and nothing is remembered
 * or relayed (docs/sandbox-chain.md "Paymaster"). A revert at execution is still possible (the
 * state moved between build and execute, or the revertNext knob): it yields a REVERTED receipt.
 *
 * A deploy-only transaction (type deploy) has nothing signed that could carry a fee: the
 * paymaster pays it in either fee mode (sponsored still needs the API key); its `fee` says what it
 * costs. Execute needs no build before it.
 *
 * Answers follow the SNIP-29 schemas: felts canonical (no leading zeros), time bounds as decimal
 * strings, errors with the spec's messages.
 *
 * Knobs (set through the app's /sandbox routes): `tamper` makes the next builds return typed data
 * whose calls differ from the request (starknet.js's safety check must refuse them);
 * `gasPricesAfterNextBuild` moves the gas price right after the next build, so that build's
 * signed maximum can fall short at execution (154 MAX_AMOUNT_TOO_LOW).
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { OutsideExecutionTypesV2, typedData as snip12 } from 'starknet';
import { SELECTOR, u256Felts } from '../../shared/erc20.js';
import { FELT_TEXT } from '../../shared/felt.js';
import { ARGENT_X_V050_CLASS_HASH, argentAccountAddress } from '../../shared/starknet.js';
import { findToken, listTokens, type Network, type Token } from '../../shared/tokens.js';
import type { Chain, OutsideCall } from './chain.js';
import { accountSignatureValid, argentOwner, FORWARDER_ADDRESS } from './contracts.js';
import { hex } from './executor.js';
import {
  feeInFri,
  friToToken,
  type GasPrices,
  gasUsage,
  type GasUsage,
  suggestedMax,
} from './gas.js';
import {
  feltListParam,
  feltParam,
  invalidParams,
  type MethodTable,
  objectParam,
  RpcFailure,
  type RpcContext,
  stringParam,
} from './jsonrpc.js';

export const PAYMASTER_ERROR = {
  INVALID_ADDRESS: 150,
  TOKEN_NOT_SUPPORTED: 151,
  INVALID_SIGNATURE: 153,
  MAX_AMOUNT_TOO_LOW: 154,
  CLASS_HASH_NOT_SUPPORTED: 155,
  TRANSACTION_EXECUTION_ERROR: 156,
  INVALID_TIME_BOUNDS: 157,
  INVALID_DEPLOYMENT_DATA: 158,
  INVALID_ID: 160,
  UNKNOWN_ERROR: 163,
} as const;

/**
 * A SNIP-29 refusal: the spec's code and message ("An error occurred (NAME)"). `data` is the
 * spec's where it defines one — TRANSACTION_EXECUTION_ERROR's `{execution_error}`, UNKNOWN_ERROR's
 * string — and otherwise a string saying why (the spec defines no `data` for the others; JSON-RPC
 * allows one, and a client is better served by a reason).
 */
const refuse = (name: keyof typeof PAYMASTER_ERROR, detail: string): RpcFailure =>
  new RpcFailure(
    PAYMASTER_ERROR[name],
    `An error occurred (${name})`,
    name === 'TRANSACTION_EXECUTION_ERROR' ? { execution_error: detail } : detail,
  );

/** Limits on what one transaction may carry (anything a stranger sends is bounded). */
export const MAX_CALLS = 32;
const MAX_CALLDATA = 1_024;
const MAX_TOTAL_CALLDATA = 4_096;
/** Remembered builds; the oldest go first when full. */
const MAX_BUILDS = 10_000;
/** Remembered tracking ids (paymaster_trackingIdToLatestHash); the oldest go first when full. */
const MAX_TRACKED = 10_000;
const DEFAULT_WINDOW_S = 3_600;
const MAX_WINDOW_S = 24 * 3_600;

export type TamperMode = 'calldata' | 'extra-call' | 'fee-amount' | 'chain-id';

interface Build {
  type: 'invoke' | 'deploy_and_invoke';
  user: bigint;
  typedData: Record<string, unknown>;
  calls: OutsideCall[];
  deployment: Record<string, unknown> | undefined;
  publicKey: bigint | undefined;
  feeMode: { mode: 'sponsored' } | { mode: 'default'; token: Token; max: bigint };
  executeAfter: bigint;
  executeBefore: bigint;
}

export interface PaymasterOptions {
  chain: Chain;
  /** when set, sponsored mode needs `x-paymaster-api-key` equal to it (as AVNU's does) */
  apiKey?: string;
}

export interface PaymasterKnobs {
  tamper: { mode: TamperMode; count: number } | undefined;
  gasPricesAfterNextBuild: GasPrices | undefined;
}

const nowSeconds = (chain: Chain): bigint => BigInt(Math.floor(chain.now() / 1000));

/** Equal as JSON, with felts compared as numbers; bounded by the stored (trusted) side's shape. */
export function sameTypedValue(given: unknown, stored: unknown, depth = 0): boolean {
  if (depth > 16) return false;
  if (typeof stored === 'string' || typeof stored === 'number') {
    if (given === stored) return true;
    const a =
      typeof given === 'number'
        ? Number.isSafeInteger(given)
          ? BigInt(given)
          : undefined
        : typeof given === 'string'
          ? parseFeltLoose(given)
          : undefined;
    const b = typeof stored === 'number' ? BigInt(stored) : parseFeltLoose(stored);
    return a !== undefined && b !== undefined && a === b;
  }
  if (Array.isArray(stored)) {
    return (
      Array.isArray(given) &&
      given.length === stored.length &&
      stored.every((item, i) => sameTypedValue(given[i], item, depth + 1))
    );
  }
  if (typeof stored === 'object' && stored !== null) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return false;
    const keys = Object.keys(stored);
    if (Object.keys(given).length !== keys.length) return false;
    return keys.every(
      (key) =>
        Object.hasOwn(given, key) &&
        sameTypedValue(
          (given as Record<string, unknown>)[key],
          (stored as Record<string, unknown>)[key],
          depth + 1,
        ),
    );
  }
  return given === stored;
}

function parseFeltLoose(text: string): bigint | undefined {
  return FELT_TEXT.test(text) ? BigInt(text) : undefined;
}

function readCalls(value: unknown): OutsideCall[] {
  if (!Array.isArray(value)) throw invalidParams('invoke.calls must be an array');
  if (value.length === 0) throw invalidParams('invoke.calls is empty');
  if (value.length > MAX_CALLS) throw invalidParams(`at most ${MAX_CALLS} calls per transaction`);
  let total = 0;
  return value.map((raw, index) => {
    const call = objectParam(raw, `invoke.calls[${index}]`);
    const calldata = feltListParam(
      call.calldata ?? [],
      `invoke.calls[${index}].calldata`,
      MAX_CALLDATA,
    );
    total += calldata.length;
    if (total > MAX_TOTAL_CALLDATA)
      throw invalidParams(`at most ${MAX_TOTAL_CALLDATA} calldata felts per transaction`);
    return {
      to: feltParam(call.to, `invoke.calls[${index}].to`),
      selector: feltParam(call.selector, `invoke.calls[${index}].selector`),
      calldata,
    };
  });
}

function address(value: unknown, name: string): bigint {
  try {
    return feltParam(value, name);
  } catch {
    throw refuse('INVALID_ADDRESS', `${name} is not a Starknet address`);
  }
}

/** SNIP-29 TIP_PRIORITY: "slow" | "normal" | "fast" | {custom: u64}. The sandbox has no tip market: read, checked, echoed. */
type Tip = 'slow' | 'normal' | 'fast' | { custom: number };

type FeeModeParam = ({ mode: 'sponsored' } | { mode: 'default'; token: Token }) & { tip?: Tip };

function readTip(value: unknown): Tip | undefined {
  if (value === undefined) return undefined;
  if (value === 'slow' || value === 'normal' || value === 'fast') return value;
  const custom =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1
      ? (value as { custom?: unknown }).custom
      : undefined;
  if (typeof custom === 'number' && Number.isSafeInteger(custom) && custom >= 0) return { custom };
  throw invalidParams(
    'parameters.fee_mode.tip must be "slow", "normal", "fast" or {custom: integer}',
  );
}

function readFeeMode(parameters: Record<string, unknown>, network: Network): FeeModeParam {
  const feeMode = objectParam(parameters.fee_mode, 'parameters.fee_mode');
  const mode = stringParam(feeMode.mode, 'parameters.fee_mode.mode');
  const tip = readTip(feeMode.tip);
  const withTip = tip === undefined ? {} : { tip };
  if (mode === 'sponsored') return { mode, ...withTip };
  if (mode !== 'default')
    throw invalidParams('parameters.fee_mode.mode must be "sponsored" or "default"');
  const gasToken = feltParam(feeMode.gas_token, 'parameters.fee_mode.gas_token');
  const token = findToken(network, hex(gasToken));
  if (token === undefined)
    throw refuse('TOKEN_NOT_SUPPORTED', `${hex(gasToken)} is not a supported gas token`);
  return { mode, token, ...withTip };
}

/** The fee mode as SNIP-29's FEE_MODE writes it (felts canonical). */
const feeModeJson = (feeMode: FeeModeParam): Record<string, unknown> => ({
  mode: feeMode.mode,
  ...(feeMode.mode === 'default' ? { gas_token: hex(BigInt(feeMode.token.address)) } : {}),
  ...(feeMode.tip === undefined ? {} : { tip: feeMode.tip }),
});

/** Time bounds in (SNIP-29 TIMESTAMP: decimal strings; numbers and 0x-hex are taken too), checked against `now`. */
function readTimeBounds(
  parameters: Record<string, unknown>,
  now: bigint,
): { after: bigint; before: bigint } {
  if (parameters.time_bounds === undefined || parameters.time_bounds === null)
    return { after: 1n, before: now + BigInt(DEFAULT_WINDOW_S) };
  const bounds = objectParam(parameters.time_bounds, 'parameters.time_bounds');
  const after = feltParam(bounds.execute_after ?? 1, 'parameters.time_bounds.execute_after');
  const before = feltParam(bounds.execute_before, 'parameters.time_bounds.execute_before');
  if (before <= now || after >= before || before > now + BigInt(MAX_WINDOW_S)) {
    throw refuse(
      'INVALID_TIME_BOUNDS',
      `execute_before must be in the next ${MAX_WINDOW_S / 3600} h and after execute_after`,
    );
  }
  return { after, before };
}

/** The execution parameters as SNIP-29's USER_PARAMETERS writes them: time bounds as decimal strings. */
const parametersJson = (
  feeMode: FeeModeParam,
  bounds: { after: bigint; before: bigint } | undefined,
): Record<string, unknown> => ({
  version: '0x1',
  fee_mode: feeModeJson(feeMode),
  ...(bounds === undefined
    ? {}
    : {
        time_bounds: {
          execute_after: bounds.after.toString(),
          execute_before: bounds.before.toString(),
        },
      }),
});

function readVersion(parameters: Record<string, unknown>): void {
  if (parameters.version !== '0x1') throw invalidParams('parameters.version must be "0x1"');
}

interface Deployment {
  address: bigint;
  publicKey: bigint;
  /** as SNIP-29's ACCOUNT_DEPLOYMENT_DATA writes it (felts canonical) */
  json: Record<string, unknown>;
}

/** Checks an ArgentX v0.5.0 deployment (for `user`, when the transaction also invokes); returns its address and owner key. */
function readDeployment(raw: unknown, user: bigint | undefined): Deployment {
  const deployment = objectParam(raw, 'transaction.deployment');
  const classHash = feltParam(deployment.class_hash, 'deployment.class_hash');
  if (classHash !== BigInt(ARGENT_X_V050_CLASS_HASH)) {
    throw refuse(
      'CLASS_HASH_NOT_SUPPORTED',
      `the sandbox deploys ArgentX v0.5.0 accounts only (class ${ARGENT_X_V050_CLASS_HASH})`,
    );
  }
  const calldata = feltListParam(deployment.calldata, 'deployment.calldata', 8);
  const sigdata =
    deployment.sigdata === undefined
      ? undefined
      : feltListParam(deployment.sigdata, 'deployment.sigdata', 8);
  const salt = feltParam(deployment.salt, 'deployment.salt');
  const addr = address(deployment.address, 'deployment.address');
  if (deployment.version !== 1 && deployment.version !== '0x1' && deployment.version !== '1')
    throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment.version must be 1');
  const publicKey = argentOwner(calldata);
  if (publicKey === undefined)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      'constructor calldata must be [0 (Starknet owner), pubkey, 1 (no guardian)]',
    );
  if (salt !== publicKey)
    throw refuse('INVALID_DEPLOYMENT_DATA', 'the salt must be the owner public key');
  if (BigInt(argentAccountAddress(hex(publicKey))) !== addr)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      'deployment.address is not the address of this class, salt and calldata',
    );
  if (user !== undefined && addr !== user)
    throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment.address is not invoke.user_address');
  const json = {
    address: hex(addr),
    class_hash: hex(classHash),
    salt: hex(salt),
    calldata: calldata.map(hex),
    ...(sigdata === undefined ? {} : { sigdata: sigdata.map(hex) }),
    version: 1,
  };
  return { address: addr, publicKey, json };
}

const TRANSACTION_TYPES = ['invoke', 'deploy_and_invoke', 'deploy'] as const;
type TransactionType = (typeof TRANSACTION_TYPES)[number];

function readType(transaction: Record<string, unknown>): TransactionType {
  const type = transaction.type;
  if (!TRANSACTION_TYPES.includes(type as TransactionType))
    throw invalidParams('transaction.type must be "invoke", "deploy_and_invoke" or "deploy"');
  return type as TransactionType;
}

const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

export function createPaymaster(options: PaymasterOptions): {
  methods: MethodTable;
  knobs: PaymasterKnobs;
  builds: () => number;
} {
  const { chain } = options;
  const builds = new Map<string, Build>();
  /** tracking id → the hash of the transaction relayed for it (one per execute here: nothing is ever re-sent) */
  const tracked = new Map<string, bigint>();
  const knobs: PaymasterKnobs = { tamper: undefined, gasPricesAfterNextBuild: undefined };

  function checkSponsor(feeMode: FeeModeParam, context: RpcContext): void {
    if (feeMode.mode !== 'sponsored' || options.apiKey === undefined) return;
    const given = context.headers['x-paymaster-api-key'];
    if (typeof given !== 'string' || !sameSecret(given, options.apiKey)) {
      throw refuse('UNKNOWN_ERROR', 'sponsored transactions need a valid x-paymaster-api-key');
    }
  }

  function remember(nonce: string, build: Build): void {
    const now = nowSeconds(chain);
    for (const [key, old] of builds) if (old.executeBefore <= now) builds.delete(key);
    while (builds.size >= MAX_BUILDS) builds.delete(builds.keys().next().value as string);
    builds.set(nonce, build);
  }

  function supportedTokens(): Array<{
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
  function feeOf(
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

  function track(transactionHash: bigint): string {
    const id = hex(BigInt(`0x${randomBytes(16).toString('hex')}`));
    while (tracked.size >= MAX_TRACKED) tracked.delete(tracked.keys().next().value as string);
    tracked.set(id, transactionHash);
    return id;
  }

  function tamper(message: Record<string, unknown>, domain: Record<string, unknown>): void {
    const knob = knobs.tamper;
    if (knob === undefined || knob.count <= 0) return;
    knob.count -= 1;
    if (knob.count === 0) knobs.tamper = undefined;
    const calls = message.Calls as Array<{ To: string; Selector: string; Calldata: string[] }>;
    const first = calls[0] as { To: string; Selector: string; Calldata: string[] };
    if (knob.mode === 'calldata') {
      // the first call's last felt (an amount's high half, a recipient…) is not what was asked
      const last = first.Calldata.length - 1;
      if (last >= 0) first.Calldata[last] = hex(BigInt(first.Calldata[last] as string) + 1n);
      else first.Calldata.push('0x1');
    } else if (knob.mode === 'extra-call') {
      calls.splice(calls.length - 1, 0, {
        To: first.To,
        Selector: hex(SELECTOR.approve),
        Calldata: [
          hex(FORWARDER_ADDRESS),
          '0xffffffffffffffffffffffffffffffff',
          '0xffffffffffffffffffffffffffffffff',
        ],
      });
    } else if (knob.mode === 'fee-amount') {
      const fee = calls[calls.length - 1] as { Calldata: string[] };
      fee.Calldata[1] = hex(BigInt(fee.Calldata[1] as string) * 2n);
    } else {
      domain.chainId = 'SN_MAIN';
    }
  }

  /** What build and execute both read first: the two objects, the type, the version and an allowed fee mode. */
  const readRequest = (
    params: Parameters<MethodTable[string]['handler']>[0],
    context: Parameters<MethodTable[string]['handler']>[1],
  ) => {
    const transaction = objectParam(params.transaction, 'transaction');
    const parameters = objectParam(params.parameters, 'parameters');
    const type = readType(transaction);
    readVersion(parameters);
    const feeMode = readFeeMode(parameters, chain.network);
    checkSponsor(feeMode, context);
    return { transaction, parameters, type, feeMode };
  };

  function buildDeploy(
    transaction: Record<string, unknown>,
    parameters: Record<string, unknown>,
    feeMode: FeeModeParam,
  ): Record<string, unknown> {
    const deployment = readDeployment(transaction.deployment, undefined);
    if (chain.classHashAt(deployment.address) !== undefined)
      throw refuse(
        'INVALID_DEPLOYMENT_DATA',
        `account ${hex(deployment.address)} is already deployed`,
      );
    const bounds =
      parameters.time_bounds === undefined || parameters.time_bounds === null
        ? undefined
        : readTimeBounds(parameters, nowSeconds(chain));
    const { fee } = feeOf(gasUsage([], true), feeMode);
    return {
      type: 'deploy',
      deployment: deployment.json,
      parameters: parametersJson(feeMode, bounds),
      fee,
    };
  }

  function executeDeploy(transaction: Record<string, unknown>): Record<string, unknown> {
    const deployment = readDeployment(transaction.deployment, undefined);
    if (chain.classHashAt(deployment.address) !== undefined)
      throw refuse(
        'INVALID_DEPLOYMENT_DATA',
        `account ${hex(deployment.address)} is already deployed`,
      );
    const record = chain.executeRelayed({
      account: deployment.address,
      deployment: { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey: deployment.publicKey },
      messageHash: deployment.address,
    });
    return { transaction_hash: hex(record.hash), tracking_id: track(record.hash) };
  }

  const methods: MethodTable = {
    paymaster_isAvailable: { params: [], handler: () => true },

    paymaster_getSupportedTokens: { params: [], handler: () => supportedTokens() },

    paymaster_trackingIdToLatestHash: {
      params: ['tracking_id'],
      handler: (params) => {
        const id = feltParam(params.tracking_id, 'tracking_id');
        const transactionHash = tracked.get(hex(id));
        if (transactionHash === undefined)
          throw refuse(
            'INVALID_ID',
            `no execution was tracked as ${hex(id)} (unknown, or forgotten after ${MAX_TRACKED} newer ones)`,
          );
        const tx = chain.ledger.transaction(transactionHash);
        // the transaction is in a block as soon as the node shows it; nothing is ever dropped here
        const status = tx !== undefined && chain.now() >= tx.visibleAt ? 'accepted' : 'active';
        return { transaction_hash: hex(transactionHash), status };
      },
    },

    paymaster_buildTransaction: {
      params: ['transaction', 'parameters'],
      handler: (params, context) => {
        const { transaction, parameters, type, feeMode } = readRequest(params, context);
        if (type === 'deploy') return buildDeploy(transaction, parameters, feeMode);
        const now = nowSeconds(chain);
        const bounds = readTimeBounds(parameters, now);
        const invoke = objectParam(transaction.invoke, 'transaction.invoke');
        const user = address(invoke.user_address, 'invoke.user_address');
        const calls = readCalls(invoke.calls);
        let deployment: Deployment | undefined;
        if (type === 'deploy_and_invoke') {
          deployment = readDeployment(transaction.deployment, user);
          if (chain.classHashAt(user) !== undefined)
            throw refuse(
              'INVALID_DEPLOYMENT_DATA',
              `account ${hex(user)} is already deployed: send an invoke`,
            );
        } else if (chain.ledger.account(user) === undefined) {
          throw refuse(
            'INVALID_ADDRESS',
            `account ${hex(user)} is not deployed: send deploy_and_invoke with its deployment data`,
          );
        }

        // the fee covers the calls plus, in default mode, the fee transfer appended below
        const feeCallCount = feeMode.mode === 'default' ? 1 : 0;
        const usage = gasUsage(
          [
            ...calls,
            ...Array.from({ length: feeCallCount }, () => ({ to: 0n, selector: 0n, calldata: [] })),
          ],
          type === 'deploy_and_invoke',
        );
        const { fee, max } = feeOf(usage, feeMode);
        const outsideCalls = [...calls];
        let buildFee: Build['feeMode'] = { mode: 'sponsored' };
        if (feeMode.mode === 'default') {
          outsideCalls.push({
            to: BigInt(feeMode.token.address),
            selector: SELECTOR.transfer,
            calldata: [FORWARDER_ADDRESS, ...u256Felts(max).map(BigInt)],
          });
          buildFee = { mode: 'default', token: feeMode.token, max };
        }
        const revert = chain.outsideRevert(
          user,
          outsideCalls,
          deployment === undefined
            ? undefined
            : { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey: deployment.publicKey },
        );
        if (revert !== undefined) throw refuse('TRANSACTION_EXECUTION_ERROR', revert);

        const nonce = hex(BigInt(`0x${randomBytes(16).toString('hex')}`));
        const domain: Record<string, unknown> = {
          name: 'Account.execute_from_outside',
          version: '2',
          chainId: 'SN_SANDBOX',
          revision: '1',
        };
        const message: Record<string, unknown> = {
          Caller: hex(FORWARDER_ADDRESS),
          Nonce: nonce,
          'Execute After': hex(bounds.after),
          'Execute Before': hex(bounds.before),
          Calls: outsideCalls.map((call) => ({
            To: hex(call.to),
            Selector: hex(call.selector),
            Calldata: call.calldata.map(hex),
          })),
        };
        tamper(message, domain);
        const typedData = {
          types: structuredClone(OutsideExecutionTypesV2),
          primaryType: 'OutsideExecution',
          domain,
          message,
        };
        // what executes is what the typed data says (tampered or not): keep the two in step
        const executed = (
          message.Calls as Array<{ To: string; Selector: string; Calldata: string[] }>
        ).map((call) => ({
          to: BigInt(call.To),
          selector: BigInt(call.Selector),
          calldata: call.Calldata.map((felt) => BigInt(felt)),
        }));
        remember(nonce, {
          type,
          user,
          typedData,
          calls: executed,
          deployment: deployment?.json,
          publicKey: deployment?.publicKey,
          feeMode: buildFee,
          executeAfter: bounds.after,
          executeBefore: bounds.before,
        });
        if (knobs.gasPricesAfterNextBuild !== undefined) {
          chain.gasPrices = knobs.gasPricesAfterNextBuild;
          knobs.gasPricesAfterNextBuild = undefined;
        }

        const echoed = parametersJson(
          feeMode,
          parameters.time_bounds === undefined || parameters.time_bounds === null
            ? undefined
            : bounds,
        );
        return {
          type,
          typed_data: typedData,
          parameters: echoed,
          fee,
          ...(deployment === undefined ? {} : { deployment: deployment.json }),
        };
      },
    },

    paymaster_executeTransaction: {
      params: ['transaction', 'parameters'],
      handler: (params, context) => {
        let request: ReturnType<typeof readRequest>;
        try {
          request = readRequest(params, context);
        } catch (error) {
          // at execute, a gas token is one the build took: another one is not what was built
          if (error instanceof RpcFailure && error.code === PAYMASTER_ERROR.TOKEN_NOT_SUPPORTED)
            throw refuse('TRANSACTION_EXECUTION_ERROR', 'fee_mode differs from the one built');
          throw error;
        }
        const { transaction, type, feeMode } = request;
        if (type === 'deploy') return executeDeploy(transaction);
        const invoke = objectParam(transaction.invoke, 'transaction.invoke');
        const user = address(invoke.user_address, 'invoke.user_address');
        const typed = objectParam(invoke.typed_data, 'invoke.typed_data');
        const message = objectParam(typed.message, 'typed_data.message');
        const nonce = hex(feltParam(message.Nonce, 'typed_data.message.Nonce'));
        const signature = feltListParam(invoke.signature, 'invoke.signature', 8);

        const build = builds.get(nonce);
        if (build === undefined) {
          throw refuse(
            'TRANSACTION_EXECUTION_ERROR',
            'no transaction was built with this nonce (never built, expired, or already executed): build it again',
          );
        }
        if (build.user !== user || build.type !== type || !sameTypedValue(typed, build.typedData)) {
          throw refuse(
            'TRANSACTION_EXECUTION_ERROR',
            'typed_data is not the transaction built for this nonce and account',
          );
        }
        if (
          build.type === 'deploy_and_invoke' &&
          !sameTypedValue(transaction.deployment, build.deployment)
        ) {
          throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment differs from the one built');
        }
        const sameMode =
          build.feeMode.mode === feeMode.mode &&
          (feeMode.mode !== 'default' ||
            (build.feeMode.mode === 'default' &&
              build.feeMode.token.address === feeMode.token.address));
        if (!sameMode)
          throw refuse('TRANSACTION_EXECUTION_ERROR', 'fee_mode differs from the one built');
        // the account would refuse an outside execution out of its time bounds (SNIP-29 lists no
        // time-bounds error for execute: the execution fails)
        const now = nowSeconds(chain);
        if (now >= build.executeBefore) {
          builds.delete(nonce);
          throw refuse(
            'TRANSACTION_EXECUTION_ERROR',
            'the transaction expired (execute_before has passed): build it again',
          );
        }
        if (now <= build.executeAfter)
          throw refuse('TRANSACTION_EXECUTION_ERROR', 'too early: execute_after has not passed');

        const account = chain.ledger.account(user);
        const publicKey = build.type === 'deploy_and_invoke' ? build.publicKey : account?.publicKey;
        if (build.type === 'invoke' && account === undefined)
          throw refuse('TRANSACTION_EXECUTION_ERROR', `account ${hex(user)} is not deployed`);
        if (build.type === 'deploy_and_invoke' && chain.classHashAt(user) !== undefined) {
          builds.delete(nonce);
          throw refuse(
            'INVALID_DEPLOYMENT_DATA',
            `account ${hex(user)} is already deployed: build an invoke`,
          );
        }
        // the stored copy is ours (bounded); the given one was proven equal to it above
        const messageHash = BigInt(snip12.getMessageHash(build.typedData as never, hex(user)));
        if (publicKey === undefined || !accountSignatureValid(publicKey, messageHash, signature)) {
          throw refuse(
            'INVALID_SIGNATURE',
            'the signature does not verify against the account key',
          );
        }

        let refund: { token: bigint; amount: bigint } | undefined;
        if (build.feeMode.mode === 'default') {
          const price = chain.strkPrices().get(build.feeMode.token.address);
          if (price === undefined)
            throw refuse(
              'TRANSACTION_EXECUTION_ERROR',
              `no price for ${build.feeMode.token.symbol}`,
            );
          const due = friToToken(
            feeInFri(gasUsage(build.calls, build.type === 'deploy_and_invoke'), chain.gasPrices),
            build.feeMode.token,
            price,
          );
          if (due > build.feeMode.max) {
            throw refuse(
              'MAX_AMOUNT_TOO_LOW',
              `the fee is now ${due} base units of ${build.feeMode.token.symbol}, above the signed maximum ${build.feeMode.max}: build again`,
            );
          }
          refund = { token: BigInt(build.feeMode.token.address), amount: build.feeMode.max - due };
        }

        builds.delete(nonce);
        const record = chain.executeRelayed({
          account: user,
          outside: {
            nonce: BigInt(nonce),
            executeAfter: build.executeAfter,
            executeBefore: build.executeBefore,
            calls: build.calls,
            signature,
          },
          ...(build.type === 'deploy_and_invoke'
            ? { deployment: { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey: publicKey } }
            : {}),
          ...(refund === undefined ? {} : { refund }),
          messageHash,
          outsideNonce: BigInt(nonce),
        });
        return { transaction_hash: hex(record.hash), tracking_id: track(record.hash) };
      },
    },
  };

  return { methods, knobs, builds: () => builds.size };
}
