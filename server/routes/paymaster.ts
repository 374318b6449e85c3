/**
 * SNIP-29 paymaster relay (docs/server-security.md "Paymaster relay"). Decisions:
 * - Every refusal of ours leaves as a JSON-RPC error object (errors plugin, `jsonRpcErrors`):
 *   starknet.js's PaymasterRpc reads nothing else. JSON-RPC answers of the paymaster itself,
 *   errors included, are relayed verbatim.
 * - An allowlist, not a prefix: only the SNIP-29 methods the client uses (starknet.js
 *   PaymasterRpc) are relayed, each metered by what it does (RELAYED_METHODS); anything else is
 *   refused (-32601) before it reaches the paymaster. A prefix let through methods a real
 *   paymaster implements beyond SNIP-29: paymaster_executeRawTransaction executed sponsored
 *   transactions past both execute limits. It stays refused (the client never sends it; a method
 *   we would meter by guessing is not relayed), as does paymaster_trackingIdToLatestHash (unused,
 *   and its tracking id names no account we could check).
 * - Params must be a named object (as SNIP-29 defines them; else -32602), bounded in nesting and
 *   size before anything walks or relays them, and of the method's shape: none for the two
 *   queries, exactly {transaction, parameters} for build and execute, each exactly of the
 *   SNIP-29 schema with no unknown key at any level (server/snip29-params.ts): `fee_mode` is
 *   required there, so a request without one (or with `feeMode`) is refused, never relayed for
 *   the paymaster to default.
 * - A transaction's user_address (and deployment address) must be the token's wallet, else 403
 *   WALLET_MISMATCH: the relay spends our API key, so one user must not act for another.
 * - Limits: 60/min per user and 120/min per IP on the route; 10/min per user on each call that
 *   executes (paymaster_executeTransaction).
 * - Sponsored gas (`fee_mode` other than `default`) is the operator's money: refused (403
 *   SPONSORED_DISABLED) unless PAYMASTER_SPONSORED=1, and then each sponsored call that executes
 *   counts against the user's daily quota (429 SPONSORED_LIMIT_REACHED once used up), whatever
 *   its outcome upstream.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JsonRpcRequest } from '../../shared/api.js';
import { AppError, ErrorCode, JSON_RPC_METHOD_NOT_FOUND } from '../../shared/errors.js';
import { fromU256, SELECTOR } from '../../shared/erc20.js';
import { feltHex, parseFelt } from '../../shared/felt.js';
import { sameAddress } from '../../shared/tokens.js';
import { authOf } from '../plugins/auth.js';
import { RATE_LIMITS, sponsoredDailyRule } from '../plugins/rate-limit.js';
import type { PaymasterRelay } from '../providers/types.js';
import { snip29ParamsProblem, type TransactionMethod } from '../snip29-params.js';

interface PaymasterRoutesOptions {
  paymaster: PaymasterRelay;
  /**
   * the paymaster's fee recipients (its forwarder), learned from its own build answers: the one
   * transfer a grant lets pay an address outside its list (server/grant-calls.ts)
   */
  feeRecipients?: Set<string>;
  /** PAYMASTER_SPONSORED */
  sponsored: boolean;
  /** PAYMASTER_SPONSORED_DAILY_LIMIT */
  sponsoredDailyLimit: number;
}

/**
 * The methods relayed, and what each does: `params` is the shape it takes (none, or SNIP-29's
 * {transaction, parameters}); `executes` puts it under the per-minute execute limit and, when
 * sponsored, the daily sponsored quota.
 */
const RELAYED_METHODS: Readonly<
  Record<string, { params: 'none' | 'transaction'; executes: boolean }>
> = {
  paymaster_isAvailable: { params: 'none', executes: false },
  paymaster_getSupportedTokens: { params: 'none', executes: false },
  paymaster_buildTransaction: { params: 'transaction', executes: false },
  paymaster_executeTransaction: { params: 'transaction', executes: true },
};

/** SNIP-29 params nest ~8 levels (typed data calls' calldata) and hold a few thousand values. */
const PARAMS_LIMITS = { maxDepth: 32, maxNodes: 20_000 } as const;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function invalidParams(message: string): AppError {
  return new AppError(ErrorCode.VALIDATION_ERROR, message);
}

interface ParamsFacts {
  /** every `user_address`, and every `address` of a `deployment`, wherever they sit */
  addresses: unknown[];
  /** params carry a transaction */
  transaction: boolean;
  /** some `fee_mode` asks for anything but the user paying (`default`) */
  sponsored: boolean;
}

/**
 * One bounded walk over params: the addresses a request acts for and whether it asks for
 * sponsored gas. The whole tree is searched rather than the documented spots so that a variant
 * shape (a future transaction type, a nested copy the paymaster also reads) cannot carry another
 * account or a sponsored fee mode past the checks. Iterative, and refused past PARAMS_LIMITS
 * with a 400 naming the bound: a deeply nested body must neither blow the stack here nor reach
 * the relay (whose JSON encoding would fail as "could not be reached").
 */
function inspectParams(
  params: unknown,
  limits: { maxDepth: number; maxNodes: number } = PARAMS_LIMITS,
): ParamsFacts {
  const root = record(params);
  const facts: ParamsFacts = {
    addresses: [],
    transaction: root !== undefined && 'transaction' in root,
    sponsored: false,
  };
  const pending: Array<{ node: unknown; depth: number }> = [{ node: params, depth: 0 }];
  let nodes = 0;
  while (pending.length > 0) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    nodes += 1;
    if (nodes > limits.maxNodes)
      throw invalidParams(`paymaster params hold more than ${limits.maxNodes} values`);
    if (depth > limits.maxDepth)
      throw invalidParams(`paymaster params are nested deeper than ${limits.maxDepth} levels`);
    if (Array.isArray(node)) {
      // one by one: spreading a huge array into push() would exceed the argument limit
      for (const item of node) pending.push({ node: item, depth: depth + 1 });
      continue;
    }
    const object = record(node);
    if (object === undefined) continue;
    for (const [key, value] of Object.entries(object)) {
      if (key === 'user_address') facts.addresses.push(value);
      if (key === 'deployment') {
        const deployment = record(value);
        // a deployment that is not an object, or names no address, has nothing to compare
        if (deployment === undefined || 'address' in deployment)
          facts.addresses.push(deployment?.address);
      }
      // anything but an explicit `default` may be read as "the paymaster pays": fail closed
      if (key === 'fee_mode' && record(value)?.mode !== 'default') facts.sponsored = true;
      pending.push({ node: value, depth: depth + 1 });
    }
  }
  return facts;
}

/** Params of the method's shape: none (absent or {}) for the queries, exactly {transaction, parameters} (two objects) for build and execute. */
function checkShape(method: string, shape: 'none' | 'transaction', params: unknown): void {
  const named = record(params);
  const keys = named === undefined ? [] : Object.keys(named);
  if (shape === 'none') {
    if (keys.length > 0) throw invalidParams(`${method} takes no params`);
    return;
  }
  const extra = keys.filter((key) => key !== 'transaction' && key !== 'parameters');
  if (
    named === undefined ||
    record(named.transaction) === undefined ||
    record(named.parameters) === undefined ||
    extra.length > 0
  ) {
    throw invalidParams(
      `${method} params must be exactly {transaction, parameters} (SNIP-29), two objects`,
    );
  }
}

const paymasterRoutes: FastifyPluginAsyncTypebox<PaymasterRoutesOptions> = async (
  fastify,
  options,
) => {
  // a grant's token may build and execute for its wallet: what it signs is checked at /sign/message
  fastify.addHook('onRequest', fastify.requireAuthOrGrant);
  const sponsoredDaily = [sponsoredDailyRule(options.sponsoredDailyLimit)];

  fastify.post(
    '/',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.paymaster),
      config: { jsonRpcErrors: true },
      schema: { body: JsonRpcRequest },
    },
    async (request, reply) => {
      const claims = authOf(request);
      const rpc = request.body;
      const method = Object.hasOwn(RELAYED_METHODS, rpc.method)
        ? RELAYED_METHODS[rpc.method]
        : undefined;
      if (method === undefined) {
        throw new AppError(
          ErrorCode.VALIDATION_ERROR,
          `Only these JSON-RPC methods are relayed: ${Object.keys(RELAYED_METHODS).join(', ')}`,
          { details: { jsonRpcCode: JSON_RPC_METHOD_NOT_FOUND } },
        );
      }
      // SNIP-29 params are a named object; positional (array) params would hide the transaction
      // from the ownership check below, so they are refused for every method.
      if (Array.isArray(rpc.params))
        throw invalidParams('paymaster params must be a named object (SNIP-29), not an array');
      const facts = inspectParams(rpc.params);
      checkShape(rpc.method, method.params, rpc.params);
      // a transaction that names no account cannot be checked, so it is not relayed
      if (facts.transaction && facts.addresses.length === 0) {
        throw invalidParams(
          'The transaction names no account (invoke.user_address or deployment.address)',
        );
      }
      for (const address of facts.addresses) {
        if (typeof address !== 'string' || !sameAddress(address, claims.walletAddress)) {
          throw new AppError(
            ErrorCode.WALLET_MISMATCH,
            'The transaction is not for the wallet of this session',
          );
        }
      }
      // exactly the SNIP-29 schema, no unknown key at any level: what we did not classify
      // (`feeMode`, no fee mode, a key the paymaster may also read) is not relayed
      if (method.params === 'transaction') {
        const problem = snip29ParamsProblem(
          rpc.method as TransactionMethod,
          rpc.params as Parameters<typeof snip29ParamsProblem>[1],
        );
        if (problem !== undefined)
          throw invalidParams(`${rpc.method} params are not SNIP-29's: ${problem}`);
      }
      if (facts.sponsored && !options.sponsored) {
        throw new AppError(
          ErrorCode.SPONSORED_DISABLED,
          'Sponsored gas is off on this server; pay the gas in a token (fee_mode {"mode": "default", "gas_token": …})',
        );
      }
      if (method.executes) {
        await fastify.enforceLimits(request, reply, RATE_LIMITS.paymasterExecute);
        if (facts.sponsored) await fastify.enforceLimits(request, reply, sponsoredDaily);
      }
      const answer = await options.paymaster.relay(rpc);
      if (rpc.method === 'paymaster_buildTransaction' && options.feeRecipients !== undefined)
        learnFeeRecipient(rpc.params, answer, options.feeRecipients);
      return answer;
    },
  );
};

/** How many fee recipients are remembered (a paymaster has one forwarder; a few allow a change). */
const MAX_FEE_RECIPIENTS = 4;

/**
 * In default fee mode the paymaster's build ends the calls with one gas-token `transfer` to its
 * forwarder of exactly `fee.suggested_max_fee_in_gas_token` (docs/contracts.md C): that
 * recipient, from the paymaster's own answer to this server (never from a client), is
 * remembered, the newest first. Only a call the paymaster appended counts: the request asked for
 * default mode in that gas token, the answer holds one call more than the request, and the
 * amount is not zero — a client's own last call is never taken for the fee.
 */
export function learnFeeRecipient(params: unknown, answer: unknown, into: Set<string>): void {
  const parameters = record(record(params)?.parameters);
  const feeMode = record(parameters?.fee_mode);
  const asked = record(record(record(params)?.transaction)?.invoke)?.calls;
  const gasToken = parseFelt(feeMode?.gas_token);
  if (feeMode?.mode !== 'default' || gasToken === undefined || !Array.isArray(asked)) return;
  const result = record(record(answer)?.result);
  const fee = record(result?.fee);
  const calls = record(record(result?.typed_data)?.message)?.Calls;
  if (!Array.isArray(calls) || calls.length !== asked.length + 1 || fee === undefined) return;
  const last = record(calls[calls.length - 1]);
  if (parseFelt(last?.To) !== gasToken) return;
  const calldata = last?.Calldata;
  if (!Array.isArray(calldata) || calldata.length !== 3) return;
  const selector = typeof last?.Selector === 'string' ? last.Selector : '';
  const isTransfer =
    selector === 'transfer' || (/^0x/i.test(selector) && parseFelt(selector) === SELECTOR.transfer);
  const [to, low, high] = calldata.map((felt) => parseFelt(felt));
  const max = parseFelt(fee.suggested_max_fee_in_gas_token);
  if (!isTransfer || to === undefined || low === undefined || high === undefined) return;
  if (max === undefined || max === 0n || fromU256(low, high) !== max) return;
  const recipient = feltHex(to);
  into.delete(recipient);
  into.add(recipient);
  while (into.size > MAX_FEE_RECIPIENTS) into.delete(into.values().next().value as string);
}

export default paymasterRoutes;
