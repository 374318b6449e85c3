/**
 * The tool server's input and output schemas (zod 4, what the MCP SDK takes). Everything a client
 * can send is bounded: string lengths, array sizes, no unknown keys. Outputs are loose objects:
 * the fields an agent acts on are typed, the rest of the core's documents passes through.
 */
import * as z from 'zod';
import { POSITION_ACTIONS } from '../core/actions/legs/types.js';

export const text = (max: number) => z.string().min(1).max(max);
export const TokenName = text(80).describe('a token symbol (ETH, USDC, STRK, …) or its 0x address');
export const Amount = text(40).describe(
  'a decimal amount in token units, exact ("1.5"); no signs or exponents',
);
export const Address = text(80).describe('a Starknet address, 0x + hex');
export const Email = text(254).describe("the person's e-mail address");

export const Pair = z.strictObject({ amount: Amount, from: TokenName, to: TokenName });
export const Transfer = z.strictObject({
  amount: Amount,
  token: TokenName,
  to: Address.describe('the recipient address'),
});

export const Slippage = text(8)
  .describe('tolerance for the minimum received, in percent, 0.01–50 (default from settings, 1)')
  .optional();
export const Validator = z
  .string()
  .min(1)
  .max(100)
  .describe('the validator: a preset name (get_staking lists them) or a staker address');
export const AcceptLowHealth = z
  .boolean()
  .optional()
  .describe(
    "ignored: a health factor left below 1.2 is the person's to acknowledge; execute_plan asks them through the host (at or below 1 is always refused)",
  );
export const GasToken = TokenName.describe(
  'pay gas in this token (default: sponsored when offered, else the gasToken setting)',
).optional();
export const MaxFee = Amount.describe(
  'refuse a plan whose maximum gas fee is above this, in gas-token units',
).optional();
export const AllowHighImpact = z
  .boolean()
  .describe(
    "ignored: a price impact above 15 % is the person's to acknowledge; execute_plan asks them through the host",
  )
  .optional();
export const RestartExit = z
  .boolean()
  .optional()
  .describe(
    "ignored: a new exit that restarts a running one's timer is the person's to acknowledge; execute_plan asks them through the host",
  );

/** An exact amount in a plan's `legs` (cli/core/actions/legs/types.ts LegAmount). */
const LegAmount = z.looseObject({
  token: z.string().describe('the symbol'),
  tokenAddress: z.string(),
  amount: z.string().describe('exact, in token units'),
  baseUnits: z.string().describe('exact, the integer in base units'),
});
const LegValidator = z.looseObject({ name: z.string(), staker: z.string(), pool: z.string() });
const LegPool = z.looseObject({ name: z.string(), address: z.string() });
const LegTokenRef = z.looseObject({ symbol: z.string(), address: z.string() });
/**
 * One leg of a plan, by its type (docs/commands.md "Plan JSON"): every leg type of
 * cli/core/actions/legs/index.ts LEG_TYPES has its member here (cli/mcp/schemas.test.ts).
 */
export const LegView = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('swap'),
    sell: LegAmount.describe('leaves exactly'),
    minimum: LegAmount.describe('arrives at least (the confirmed minimum)'),
    expected: LegAmount.describe('expected, not guaranteed'),
    slippageBps: z.number(),
    router: z.string(),
  }),
  z.looseObject({ type: z.literal('transfer'), amount: LegAmount, to: z.string() }),
  z.looseObject({
    type: z.literal('stake'),
    amount: LegAmount,
    validator: LegValidator,
    entry: z.enum(['enter', 'add']),
  }),
  z.looseObject({
    type: z.literal('unstake-intent'),
    amount: LegAmount.describe('0 cancels the running exit'),
    cancel: z.boolean(),
    validator: LegValidator,
  }),
  z.looseObject({ type: z.literal('unstake'), amount: LegAmount, validator: LegValidator }),
  z.looseObject({
    type: z.literal('claim'),
    amount: LegAmount,
    validator: LegValidator,
    rewardAddress: z.string(),
  }),
  z.looseObject({
    type: z.literal('supply'),
    amount: LegAmount,
    pool: LegPool,
    vToken: z.string(),
  }),
  z.looseObject({
    type: z.literal('withdraw'),
    pool: LegPool,
    vToken: z.string(),
    all: z.boolean(),
    amount: LegAmount.optional().describe('arrives exactly (an amount)'),
    minimum: LegAmount.optional().describe('arrives at least (all)'),
    shares: z.string().optional(),
  }),
  z.looseObject({
    type: z.literal('position'),
    action: z.enum(POSITION_ACTIONS),
    pool: LegPool,
    collateralToken: LegTokenRef,
    debtToken: LegTokenRef,
    deposit: LegAmount.optional(),
    withdrawCollateral: z
      .union([
        z.looseObject({ all: z.literal(false), amount: LegAmount }),
        z.looseObject({ all: z.literal(true), minimum: LegAmount }),
      ])
      .optional(),
    borrow: LegAmount.optional(),
    repay: z
      .union([
        z.looseObject({ all: z.literal(false), amount: LegAmount }),
        z.looseObject({ all: z.literal(true), maximum: LegAmount, nominalDebt: z.string() }),
      ])
      .optional()
      .describe('all: the pool is approved for at most `maximum`, cleared to 0 after'),
    health: z.looseObject({ before: z.string().nullable(), after: z.string().nullable() }),
  }),
]);
const Legs = z.array(LegView).describe('every leg of the plan, in call order, exact');

export const Money = z.looseObject({
  amount: z.string(),
  baseUnits: z.string(),
  symbol: z.string(),
});
/** A registry token the wallet holds, and how much of it, exactly. */
const TokenHolding = {
  symbol: z.string(),
  address: z.string(),
  decimals: z.number(),
  amount: z.string(),
  baseUnits: z.string(),
};
const Quote = z.looseObject({
  from: z.looseObject({ symbol: z.string(), address: z.string() }),
  to: z.looseObject({ symbol: z.string(), address: z.string() }),
  amountIn: Money,
  expectedOutput: Money,
  minimumReceived: Money,
  fee: z.looseObject({ bps: z.number(), percent: z.string(), amount: Money }),
  priceImpact: z.looseObject({ bps: z.number(), percent: z.string() }).nullable(),
  route: z.array(z.looseObject({ percent: z.string() })),
});

const RebalanceView = z.looseObject({
  base: z.enum(['named-tokens', 'whole-wallet']),
  baseNote: z.string(),
  band: z.string(),
  rows: z.array(
    z.looseObject({
      symbol: z.string(),
      now: z.string(),
      target: z.string(),
      after: z.string().nullable(),
    }),
  ),
  notes: z.array(z.string()),
});

export const inputs = {
  none: z.strictObject({}),
  balances: z.strictObject({
    tokens: z
      .array(TokenName)
      .max(20)
      .optional()
      .describe('only these tokens (default: every token held)'),
  }),
  quote: z.strictObject({
    pairs: z
      .array(Pair)
      .min(1)
      .max(3)
      .describe('one pair for a single quote; 2–3 for a multi-swap quote'),
    slippagePercent: Slippage,
  }),
  history: z.strictObject({
    limit: z.number().int().min(1).max(100).optional().describe('the newest N (default 20)'),
  }),
  transaction: z.strictObject({
    hash: text(70).describe('the transaction hash, 0x + up to 64 hex digits'),
  }),
  login: z.strictObject({ email: Email }),
  verify: z.strictObject({
    email: Email,
    code: z
      .string()
      .regex(/^[0-9]{6}$/)
      .describe('the 6-digit code the person read from the sign-in mail'),
  }),
  staking: z.strictObject({}),
  lending: z.strictObject({
    pool: z
      .string()
      .min(1)
      .max(80)
      .describe("the Vesu pool's name or address (default: the network's main pool)")
      .optional(),
  }),
  portfolio: z.strictObject({
    fresh: z
      .boolean()
      .optional()
      .describe('ask for every price now instead of reusing one up to 20 s old (default false)'),
  }),
  execute: z.strictObject({
    planId: z.string().uuid().describe('the planId a plan_* tool returned'),
  }),
};

const Where = { network: z.string(), sandbox: z.boolean() };

/** Why execute_plan would refuse a plan for a cap the server holds: the error it would answer. */
const NotExecutable = z
  .looseObject({ code: z.string(), message: z.string(), details: z.looseObject({}).optional() })
  .describe('why execute_plan would refuse this plan (a cap the server holds), as its error');

export const outputs = {
  lending: z.looseObject({
    network: z.string(),
    account: z.string(),
    supplied: z.array(z.looseObject({ pool: z.string(), token: z.string(), amount: z.string() })),
    markets: z.array(
      z.looseObject({
        pool: z.string(),
        token: z.string(),
        utilization: z.string(),
        supplyApr: z.string(),
        supplyApy: z.string(),
        borrowApr: z.string(),
        borrowApy: z.string(),
      }),
    ),
    borrows: z.array(
      z.looseObject({ pool: z.string(), healthFactor: z.string().nullable(), maxLtv: z.string() }),
    ),
  }),
  staking: z.looseObject({
    network: z.string(),
    account: z.string(),
    validators: z.array(z.looseObject({ name: z.string(), staker: z.string(), pool: z.string() })),
    positions: z.array(z.looseObject({ validator: z.string(), pool: z.string() })),
  }),
  status: z.looseObject({
    ...Where,
    swapsSupported: z.boolean(),
    aggregator: z.looseObject({ reachable: z.boolean() }),
    server: z.looseObject({ reachable: z.boolean() }),
  }),
  session: z.looseObject({
    signedIn: z.boolean(),
    email: z.string().optional(),
    address: z.string().optional(),
    network: z.string(),
    sandbox: z.boolean(),
    expiresAt: z.string().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  }),
  balances: z.looseObject({
    ...Where,
    address: z.string(),
    tokens: z.array(
      z.looseObject({
        ...TokenHolding,
        usd: z.string().nullable(),
      }),
    ),
    totalUsd: z.string(),
    unpriced: z.array(z.string()),
    asOf: z.string(),
  }),
  quote: z.looseObject({
    ...Where,
    mode: z.string(),
    slippage: z.looseObject({ bps: z.number(), percent: z.string() }),
    quotedAt: z.string(),
    validUntil: z.string(),
    quotes: z.array(Quote),
  }),
  history: z.looseObject({
    ...Where,
    account: z.string(),
    entries: z.array(
      z.looseObject({
        // null: the transaction's answer was lost while sending (a cancellation, a dropped
        // connection); `hashNote` says so and what settles it (docs/architecture.md "Tool server")
        hash: z.string().nullable(),
        hashNote: z.string().optional(),
        kind: z.string(),
        status: z.string(),
        time: z.string(),
      }),
    ),
  }),
  transaction: z.looseObject({
    ...Where,
    hash: z.string(),
    finality: z.string(),
    execution: z.string().nullable(),
    blockNumber: z.number().nullable(),
    balanceChanges: z.array(
      z.looseObject({ symbol: z.string(), amount: z.string(), baseUnits: z.string() }),
    ),
  }),
  login: z.looseObject({ ...Where, email: z.string(), sent: z.literal(true), next: z.string() }),
  verify: z.looseObject({
    ...Where,
    email: z.string(),
    address: z.string(),
    expiresAt: z.string(),
    isExisting: z.boolean(),
  }),
  portfolio: z.looseObject({
    ...Where,
    address: z.string(),
    tokens: z.array(
      z.looseObject({
        ...TokenHolding,
        price: z.looseObject({ usd: z.string() }).nullable(),
        value: z.looseObject({ usd: z.string(), cents: z.string() }).nullable(),
        share: z
          .looseObject({
            percent: z.string(),
            units: z.number().int().describe('hundredths of a percent'),
          })
          .nullable(),
        unpriced: z.string().nullable().describe('why the token has no price'),
      }),
    ),
    total: z.looseObject({ usd: z.string(), cents: z.string() }),
    unpriced: z.array(z.looseObject({ symbol: z.string(), reason: z.string() })),
    notes: z.array(z.string()),
    pricing: z.looseObject({
      method: z.string(),
      pricesAsOf: z.string().nullable(),
      ageSeconds: z.number().nullable(),
    }),
    asOf: z.string(),
  }),
  plan: z.looseObject({
    planId: z.string(),
    confirmBy: z
      .string()
      .describe('ISO time: execute_plan refuses this plan after it (plan again)'),
    executable: z
      .boolean()
      .describe(
        'whether execute_plan may execute this plan: the server was started with --allow-execute and the plan is within every cap the server holds',
      ),
    notExecutable: NotExecutable.optional(),
    next: z.string(),
    plan: z.looseObject({
      kind: z.string(),
      headline: z.string(),
      legs: Legs,
      swaps: z.array(z.looseObject({})),
      sends: z.array(z.looseObject({})),
      gas: z.looseObject({ mode: z.string() }),
      simulation: z.looseObject({ status: z.string() }),
    }),
  }),
  rebalance: z.looseObject({
    status: z
      .enum(['planned', 'balanced'])
      .describe('planned: a plan to show and execute; balanced: nothing to do, nothing planned'),
    planId: z.string().optional(),
    confirmBy: z.string().optional(),
    executable: z.boolean().optional(),
    notExecutable: NotExecutable.optional(),
    signed: z.literal(false).optional(),
    message: z.string().optional(),
    next: z.string().optional(),
    plan: z
      .looseObject({
        kind: z.literal('rebalance'),
        headline: z.string(),
        legs: Legs,
        swaps: z.array(z.looseObject({})),
        gas: z.looseObject({ mode: z.string() }),
        simulation: z.looseObject({ status: z.string() }),
        rebalance: RebalanceView,
      })
      .optional(),
    rebalance: RebalanceView.describe('the allocation: token, now %, target %, after %'),
  }),
  execution: z.looseObject({
    planId: z.string(),
    result: z.looseObject({
      headline: z.string(),
      legs: Legs,
      transaction: z.looseObject({
        hash: z.string(),
        status: z.literal('SUCCEEDED'),
        received: z.array(
          z.looseObject({
            symbol: z.string(),
            amount: z.string(),
            baseUnits: z.string(),
            minimum: Money.omit({ symbol: true }),
          }),
        ),
        feePaid: z
          .looseObject({ symbol: z.string(), amount: z.string(), baseUnits: z.string() })
          .nullable(),
      }),
    }),
  }),
};
