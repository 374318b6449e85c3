/**
 * A fake of the TUI's services port for screen tests (pure UI logic): scripted answers, every
 * call recorded with its signal, quotes answered on demand so stale ones can be tested.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { watchLockWaits } from '../../shared/fs.js';
import { DEFAULT_SETTINGS, settingsProblem } from '../../cli/platform/settings.js';
import { findToken, listTokens } from '../../shared/tokens.js';
import { checkRecipient, slippageLevel } from '../../cli/core/actions/rules.js';
import { ACTION_KINDS } from '../../cli/core/actions/kinds.js';
import { lendingPool } from '../../cli/core/lending-pool.js';
import {
  impactLevel,
  priceImpactWarning,
  type QuoteSummary,
} from '../../cli/core/quote-summary.js';
import { formatAmount, parseAmount } from '../../shared/amount.js';
import { parseAddress } from '../../shared/tokens.js';
import type {
  Balances,
  ExecutionStep,
  Features,
  HistoryEntry,
  PlanHandle,
  QuoteRequest,
  Receipt,
  Session,
  SettingsView,
  PlanView,
  PlanRequest,
  Portfolio,
  TuiServices,
  BalanceChange,
  Environment,
} from '../../cli/ui/services.js';
import type { LendingDocument } from '../../cli/core/lending.js';
import type { GasView, PlanSwapView, SpendView } from '../../cli/core/actions/document.js';
import type { LegAmount, LegView } from '../../cli/core/actions/legs/types.js';
import type { PairSpec, StakeSpec, TransferSpec } from '../../cli/core/actions/pipeline.js';
import { buildPlanLines, type PlanLine } from '../../cli/core/actions/plan-lines.js';
import type { StakingDocument } from '../../cli/core/staking.js';
import type { Liquidation } from '../../cli/core/liquidations.js';

/** Changes summed per token, in first-seen order. */
function perToken(changes: BalanceChange[]): BalanceChange[] {
  const bySymbol = new Map<string, BalanceChange>();
  for (const change of changes) {
    const seen = bySymbol.get(change.symbol);
    bySymbol.set(change.symbol, seen ? { ...seen, delta: seen.delta + change.delta } : change);
  }
  return [...bySymbol.values()];
}

/** The fake's tokens are mainnet's registry tokens (checkRecipient below says the same). */
function registryToken(symbol: string): { address: string; decimals: number } {
  const token = findToken('mainnet', symbol);
  if (token === undefined)
    throw new Error(`fake services: ${symbol} is not a mainnet registry token`);
  return token;
}

/** A receipt's balance change, as the core's receipt lines carry it: the registry's token. */
function changeLine(symbol: string, delta: bigint): PlanLine {
  const { address, decimals } = registryToken(symbol);
  const amount = {
    symbol,
    address,
    decimals,
    baseUnits: delta,
    amount: formatAmount(delta, decimals),
  };
  return {
    kind: 'change',
    leg: null,
    words: `${delta > 0n ? '+' : ''}${amount.amount} ${symbol}`,
    amounts: [amount],
    to: null,
  };
}

/**
 * The plan's lines by the core's own rule (plan-lines.ts buildPlanLines), from the legs this
 * fake plans: its swaps (quoteFixture's figures) and its sends (18 decimals), then the gas.
 */
function fakeLines(fixtures: QuoteSummary[], request: PlanRequest, gas: GasView): PlanLine[] {
  const { sends } = itemsOf(request);
  // one address per symbol (quoteFixture gives every token of a side the same one)
  const at = (symbol: string): string => `0x${Buffer.from(symbol).toString('hex')}`;
  const quotes = fixtures.map((q) => ({
    ...q,
    from: { ...q.from, address: at(q.from.symbol) },
    to: { ...q.to, address: at(q.to.symbol) },
  }));
  const legAmount = (
    m: { amount: string; baseUnits: string; symbol: string },
    address: string,
  ): LegAmount => ({
    token: m.symbol,
    tokenAddress: address,
    amount: m.amount,
    baseUnits: m.baseUnits,
  });
  const legs: LegView[] = [
    ...quotes.map((q): LegView => ({
      type: 'swap',
      sell: legAmount(q.amountIn, q.from.address),
      minimum: legAmount(q.minimumReceived, q.to.address),
      expected: legAmount(q.expectedOutput, q.to.address),
      slippageBps: request.slippageBps,
      router: '0x3',
    })),
    ...sends.map((s): LegView => {
      const baseUnits = parseAmount(s.amount, 18);
      return {
        type: 'transfer',
        amount: {
          token: s.token,
          tokenAddress: at(s.token),
          amount: formatAmount(baseUnits, 18),
          baseUnits: baseUnits.toString(),
        },
        to: parseAddress(s.to, 'recipient'),
      };
    }),
  ];
  const book = [
    ...quotes.flatMap((q) => [q.from, q.to]),
    ...sends.map((s) => ({ symbol: s.token, address: at(s.token), decimals: 18 })),
  ];
  const swaps = quotes as PlanSwapView[];
  // what leaves, leg by leg (the fake merges no tokens and reads no balance)
  const spend = [
    ...quotes.map((q) => ({ token: q.from, amount: q.amountIn })),
    ...legs.flatMap((l) =>
      l.type === 'transfer'
        ? [
            {
              token: { symbol: l.amount.token, address: l.amount.tokenAddress, decimals: 18 },
              amount: { ...l.amount, symbol: l.amount.token },
            },
          ]
        : [],
    ),
  ].map(({ token, amount }): SpendView => ({
    token,
    amount,
    expected: null,
    expectedAsOf: null,
    gas: { amount: '0', baseUnits: '0', symbol: token.symbol },
    total: amount,
    balance: null,
  }));
  return buildPlanLines({ legs, swaps, spend, terms: [], gas, acknowledgments: [] }, book);
}

/** The transaction hash the fake's sends report: a well-formed felt (0x + 64 hex), as the chain's are. */
export const SEND_HASH = '0x03f1d7c2a9e84b6055c2e1f7a3b9d0864e2c5a7f1b3d9e0c6a8f2b4d7e1c3a95';
/** The transaction hash the fake's swaps report. */
export const SWAP_HASH = '0x0615a8e3c7b2d94f1e06a3c5b8d7f2e91c4a6b0d3e5f7a2c9b1d8e4f6a0c2b37';

/** A token's registry address on mainnet, or a well-formed placeholder for a symbol the registry lacks. */
const addressOf = (symbol: string, placeholder: string): string =>
  findToken('mainnet', symbol)?.address ?? `0x${placeholder.padStart(64, '0')}`;

export const SESSION: Session = {
  email: 'alice@example.com',
  userId: 'user-1',
  walletId: 'wallet-1',
  walletAddress: '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  expiresAt: '2030-01-01T00:00:00.000Z',
  isExisting: true,
};

export function quoteFixture(request: QuoteRequest, impactBps = 5): QuoteSummary {
  const money = (amount: string, baseUnits: string, symbol: string) => ({
    amount,
    baseUnits,
    symbol,
  });
  return {
    from: { symbol: request.from, address: addressOf(request.from, '1'), decimals: 6 },
    to: { symbol: request.to, address: addressOf(request.to, '2'), decimals: 18 },
    amountIn: money(request.amount, (BigInt(request.amount) * 10n ** 6n).toString(), request.from),
    expectedOutput: money('0.0333', '33300000000000000', request.to),
    grossOutput: money('0.03331', '33310000000000000', request.to),
    fee: { bps: 2, percent: '0.02%', amount: money('0.00001', '10000000000000', request.to) },
    minimumReceived: money('0.0329', '32900000000000000', request.to),
    calldataMinimumReceived: money('0.0329', '32900000000000000', request.to),
    priceImpact: { bps: impactBps, percent: `${(impactBps / 100).toFixed(2)}%` },
    priceImpactWarning: priceImpactWarning(impactBps),
    rate: '0.000333',
    route: [
      {
        percent: '100%',
        hops: [
          {
            from: request.from,
            to: request.to,
            pools: [
              {
                protocol: 1,
                poolName: 'Pool A',
                poolAddress: `0x${'9'.padStart(64, '0')}`,
                percent: '100%',
              },
            ],
          },
        ],
      },
    ],
    gas: { estimatedGasUsed: '190000', estimatedGasUsedInUsd: '0.15' },
  };
}

interface PendingQuote {
  request: QuoteRequest;
  signal: AbortSignal;
  resolve: (q: QuoteSummary) => void;
  reject: (e: unknown) => void;
}

interface FakeOptions {
  features?: Partial<Features>;
  session?: Session | null;
  sandbox?: boolean;
  /** answer quotes at once with this impact (else they wait for answerQuote) */
  autoQuoteImpactBps?: number;
  requestCode?: (email: string) => Promise<void>;
  balances?: Balances;
  /** balances fail with this */
  balancesError?: Error;
  /** what portfolio() answers (each call in order; the last repeats) */
  portfolios?: Portfolio[];
  /** plan() of a rebalance fails with this (e.g. ALREADY_BALANCED) */
  rebalanceError?: Error;
  /** instead of the default success (which reports 'submitting' first); a send reports 'submitted' SEND_HASH first */
  execute?: (onStep: (step: ExecutionStep) => void) => Promise<Receipt>;
  /** the gas of every plan, as the plan document says it (default: sponsored) */
  gas?: GasView;
  /** instead of the default plan (built from the request) */
  plan?: (request: PlanRequest) => Promise<PlanView>;
  history?: HistoryEntry[];
  historySetAside?: string;
  /** the wallet's liquidations history() answers beside the entries (newest first) */
  historyLiquidations?: Liquidation[];
  /** what lending() answers (absent: no positions); a list: each call in order, the last repeats (an Error is thrown) */
  lending?:
    | (LendingDocument & { liquidations?: Liquidation[] })
    | Array<(LendingDocument & { liquidations?: Liquidation[] }) | Error>;
  /** what staking() answers (absent: the port has no staking); a list: each call in order, the last repeats (an Error is thrown) */
  staking?: StakingDocument | Array<StakingDocument | Error>;
  /** the clock of the plans' expiry */
  now?: () => number;
  /** laid over what connect() answers (a Sepolia-shaped sandbox, a child started with its log) */
  environment?: Partial<Environment>;
}

type FakeServices = TuiServices & {
  calls: string[];
  /** the name a test knows a plan by: planned-<kind>-<n> */
  nameOf(handle: PlanHandle): string;
  quotes: PendingQuote[];
  closed: boolean;
  settingsView: SettingsView;
};

/**
 * A lending request in the call log: "USDC 100 against ETH 1" (only what was asked: the token
 * supplied or the position's debt, the amount, the collateral and its deposit); '' for another.
 */
function lendingWords({ kind, params }: PlanRequest): string {
  if (ACTION_KINDS[kind].via !== 'Lending') return '';
  const p: Readonly<Record<string, unknown>> = params;
  const words = (name: string, before: string): string =>
    typeof p[name] === 'string' ? `${before}${p[name]}` : '';
  const token = words('token', '') || words('debt', '');
  return `${token}${words('amount', ' ')}${p.collateral === undefined ? '' : `${words('collateral', ' against ')}${words('collateralAmount', ' ')}`}`;
}

/**
 * The request's swaps, transfers, supplies and stakes as the core's request holds them: the
 * values go through the kind's own declaration (`request`, cli/core/actions/kinds.ts), as the
 * real adapter's do, so the fake plans what the core would be asked.
 */
function itemsOf(request: PlanRequest): {
  swaps: PairSpec[];
  sends: TransferSpec[];
  supplies: Array<{ amount: string; token: string }>;
  stakes: StakeSpec[];
} {
  const r = ACTION_KINDS[request.kind].request(request.params as never);
  return {
    swaps:
      r.kind === 'trade' ? [r.swap] : r.kind === 'multi-swap' || r.kind === 'batch' ? r.swaps : [],
    sends: r.kind === 'send' ? [r.transfer] : r.kind === 'batch' ? r.transfers : [],
    supplies: r.kind === 'batch' ? (r.supplies ?? []) : [],
    stakes: r.kind === 'batch' ? (r.stakes ?? []) : [],
  };
}

export function fakeServices(options: FakeOptions = {}): FakeServices {
  let session = options.session ?? null;
  let portfolioCalls = 0;
  let lendingCalls = 0;
  let stakingCalls = 0;
  const named = (name: string): PlanHandle => {
    const handle = Object.freeze({}) as PlanHandle;
    names.set(handle, name);
    return handle;
  };
  /** each plan's handle is its own: a test can tell which one was signed */
  let plans = 0;
  const names = new WeakMap<PlanHandle, string>();
  const fake: FakeServices = {
    calls: [],
    nameOf: (handle) => names.get(handle) ?? 'unknown',
    quotes: [],
    closed: false,
    settingsView: {
      slippageBps: 100,
      network: 'mainnet',
      serverUrl: 'http://127.0.0.1:3001',
      gasToken: 'STRK',
    },
    features: {
      balances: false,
      trade: false,
      multiSwap: false,
      batch: false,
      send: false,
      history: false,
      portfolio: false,
      ...options.features,
    },
    async connect() {
      fake.calls.push('connect');
      const sandbox = options.sandbox ?? true;
      const environment: Environment = sandbox
        ? {
            sandbox,
            network: 'mainnet',
            serverUrl: 'http://127.0.0.1:41001',
            urls: {
              server: 'http://127.0.0.1:41001',
              aggregator: 'http://127.0.0.1:41002',
              chain: 'http://127.0.0.1:41003/rpc',
              paymaster: 'http://127.0.0.1:41004',
              identity: 'http://127.0.0.1:41005',
            },
          }
        : { sandbox, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001' };
      return { ...environment, ...options.environment };
    },
    async currentSession() {
      return session;
    },
    async requestCode(email) {
      fake.calls.push(`requestCode ${email}`);
      await options.requestCode?.(email);
    },
    async verifyCode(email, code) {
      fake.calls.push(`verifyCode ${email}`);
      if (code !== '123456') throw new AppError(ErrorCode.INVALID_OTP, 'invalid or expired code');
      session = { ...SESSION, email };
      return session;
    },
    async sandboxCode() {
      return '123456';
    },
    async logout() {
      fake.calls.push('logout');
      session = null;
    },
    ...(options.staking === undefined
      ? {}
      : {
          async staking() {
            fake.calls.push('staking');
            const answers = Array.isArray(options.staking) ? options.staking : [options.staking];
            const next = answers[Math.min(stakingCalls++, answers.length - 1)];
            if (next instanceof Error || next === undefined) throw next ?? new Error('no answer');
            return next;
          },
        }),
    async lending() {
      fake.calls.push('lending');
      const answers = Array.isArray(options.lending) ? options.lending : [options.lending];
      const next = answers[Math.min(lendingCalls++, answers.length - 1)];
      if (next instanceof Error) throw next;
      return (
        next ?? {
          network: 'mainnet',
          account: SESSION.walletAddress,
          pools: [{ name: 'Prime', address: lendingPool('mainnet').address }],
          supplied: [],
          markets: [],
          borrows: [],
        }
      );
    },
    async portfolio({ fresh }) {
      fake.calls.push(`portfolio${fresh === true ? ' fresh' : ''}`);
      const list = options.portfolios ?? [];
      const next = list[Math.min(portfolioCalls++, list.length - 1)];
      if (next === undefined) throw new Error('no portfolio in the fake');
      return next;
    },
    async balances() {
      if (options.balancesError) throw options.balancesError;
      return options.balances ?? { available: false, reason: 'no chain reader in the fake' };
    },
    quote(request, { signal }) {
      fake.calls.push(
        `quote ${request.amount} ${request.from}>${request.to} ${request.slippageBps}`,
      );
      if (options.autoQuoteImpactBps !== undefined)
        return Promise.resolve(quoteFixture(request, options.autoQuoteImpactBps));
      return new Promise((resolve, reject) =>
        fake.quotes.push({ request, signal, resolve, reject }),
      );
    },
    async plan(request: PlanRequest, _session, { onProgress }): Promise<PlanView> {
      if (request.kind === 'rebalance' && options.rebalanceError) {
        fake.calls.push(`plan rebalance ${request.params.target}`);
        throw options.rebalanceError;
      }
      const { swaps, sends, supplies, stakes } = itemsOf(request);
      fake.calls.push(
        `plan ${request.kind} ${swaps.map((p) => `${p.amount} ${p.from}>${p.to}`).join(', ')}${sends.map((p) => `; send ${p.amount} ${p.token}>${p.to}`).join('')}${stakes.map((p) => `; stake ${p.amount} ${p.token ?? ''}>${p.validator}`).join('')}${supplies.map((p) => `; supply ${p.amount} ${p.token}`).join('')}${lendingWords(request)}`,
      );
      onProgress?.('simulating the transaction');
      if (options.plan) return options.plan(request);
      const impact = options.autoQuoteImpactBps ?? 5;
      const quotes = swaps.map((pair) =>
        quoteFixture({ ...pair, slippageBps: request.slippageBps }, impact),
      );
      return {
        request,
        headline:
          lendingWords(request) !== ''
            ? `${request.kind} ${lendingWords(request)}`
            : quotes
                .map(
                  (q) =>
                    `${q.amountIn.amount} ${q.from.symbol} → at least ${q.minimumReceived.amount} ${q.to.symbol}`,
                )
                .join('; '),
        lines: fakeLines(quotes, request, options.gas ?? { mode: 'sponsored' }),
        quotes,
        slippageBps: request.slippageBps,
        // the core's rules (legs/swap.ts swapAcknowledgments): impact or slippage above 15 % on a swap
        acknowledgments: [
          ...(priceImpactWarning(impact) === 'very-high' && quotes.length > 0
            ? [{ id: 'high-impact' as const, reason: 'price impact above 15%' }]
            : []),
          ...(slippageLevel(request.slippageBps) === 'very-high' && quotes.length > 0
            ? [{ id: 'high-slippage' as const, reason: 'slippage above 15%' }]
            : []),
        ],
        impact: impactLevel(impact),
        deploysAccount: false,
        calls: [
          ...swaps.flatMap((pair) => [
            {
              contract: pair.from,
              entrypoint: 'approve',
              description: `approve the router to take exactly ${pair.amount} ${pair.from}`,
            },
            {
              contract: 'router',
              entrypoint: 'swap',
              description: `swap ${pair.amount} ${pair.from} for at least 0.0329 ${pair.to}`,
            },
          ]),
          ...sends.map((send) => ({
            contract: addressOf(send.token, '4718'),
            entrypoint: 'transfer',
            description: `transfer exactly ${send.amount} ${send.token} to ${send.to}`,
          })),
        ],
        // one change per token, as the core's simulation reports them
        simulatedChanges: perToken([
          ...swaps.flatMap((pair) => [
            { symbol: pair.from, decimals: 6, delta: -(BigInt(pair.amount) * 10n ** 6n) },
            { symbol: pair.to, decimals: 18, delta: 33300000000000000n },
          ]),
          ...sends.map((send) => ({
            symbol: send.token,
            decimals: 18,
            delta: -parseAmount(send.amount, 18),
          })),
        ]),
        warnings: [],
        expiresAt: (options.now ?? Date.now)() + 30_000,
        handle: named(`planned-${request.kind === 'send' ? 'send' : 'swap'}-${++plans}`),
      };
    },
    async execute(plan, _session, { onStep }) {
      fake.calls.push(`execute ${fake.nameOf(plan.handle)}`);
      if (options.execute) return options.execute(onStep);
      if (plan.request.kind === 'send') {
        onStep({ kind: 'submitted', hash: SEND_HASH });
        const [send] = itemsOf(plan.request).sends;
        const { decimals } = registryToken(send?.token ?? '?');
        const amount = parseAmount(send?.amount ?? '0', decimals);
        return {
          headline: `Sent ${formatAmount(amount, decimals)} ${send?.token} to ${send?.to}`,
          transactionHash: SEND_HASH,
          status: 'succeeded',
          lines: [changeLine(send?.token ?? '?', -amount)],
        };
      }
      onStep({ kind: 'submitting' });
      return {
        headline: 'Swap confirmed',
        transactionHash: SWAP_HASH,
        status: 'succeeded',
        lines: [
          changeLine('ETH', 33300000000000000n),
          {
            kind: 'arrives',
            leg: null,
            words: 'received 0.0333 ETH (you confirmed at least 0.0329 ETH)',
            amounts: [],
            to: null,
          },
        ],
      };
    },
    async history() {
      fake.calls.push('history');
      return {
        entries: options.history ?? [],
        setAside: options.historySetAside ?? null,
        ...(options.historyLiquidations === undefined
          ? {}
          : { liquidations: options.historyLiquidations, liquidationsNote: null }),
      };
    },
    // the core's rule, as the app's adapter calls it (cli/ui/adapter.ts): the fake's tokens are mainnet's
    checkRecipient(text, current) {
      try {
        return {
          address: checkRecipient(text, { network: 'mainnet', account: current.walletAddress }),
        };
      } catch (error) {
        return { problem: error instanceof AppError ? error.message : 'not an address' };
      }
    },
    async status() {
      return {
        network: 'sandbox',
        sandbox: true,
        swapsSupported: true,
        aggregator: { url: 'http://agg', reachable: true, status: 200, message: 'ok' },
        server: {
          url: 'http://srv',
          reachable: false,
          usable: false,
          error: 'not reachable (ECONNREFUSED)',
        },
      };
    },
    settings() {
      return fake.settingsView;
    },
    async updateSettings(patch) {
      // the settings store's own rule (cli/platform/settings.ts), as the real port saves them
      const next = { ...fake.settingsView, ...patch };
      const problem = settingsProblem({
        ...next,
        aggregatorUrl: DEFAULT_SETTINGS.aggregatorUrl,
        sandbox: false,
      });
      if (problem !== undefined)
        throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${problem}`);
      fake.settingsView = next;
      return fake.settingsView;
    },
    // the real one: a test that saves through the real store sees its waits
    watchLockWaits,
    tokens() {
      return listTokens('mainnet').map((t) => ({
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
      }));
    },
    async close() {
      fake.closed = true;
    },
  };
  return fake;
}
