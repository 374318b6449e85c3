/**
 * A fake of the TUI's services port for screen tests (pure UI logic): scripted answers, every
 * call recorded with its signal, quotes answered on demand so stale ones can be tested.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { listTokens } from '../../shared/tokens.js';
import { priceImpactWarning, type QuoteSummary } from '../../cli/core/quote-summary.js';
import { parseAmount } from '../../shared/amount.js';
import { parseAddress } from '../../cli/core/chain/calls.js';
import type { Balances, ExecutionStep, Features, HistoryEntry, QuoteRequest, Receipt, SendPlanView, Session, SettingsView, SwapPlanView, SwapRequest, TuiServices } from '../../cli/ui/services.js';

export const SESSION: Session = {
  email: 'alice@example.com',
  userId: 'user-1',
  walletId: 'wallet-1',
  walletAddress: '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  expiresAt: '2030-01-01T00:00:00.000Z',
  isExisting: true,
};

export function quoteFixture(request: QuoteRequest, impactBps = 5): QuoteSummary {
  const money = (amount: string, baseUnits: string, symbol: string) => ({ amount, baseUnits, symbol });
  return {
    from: { symbol: request.from, address: '0x1', decimals: 6 },
    to: { symbol: request.to, address: '0x2', decimals: 18 },
    amountIn: money(request.amount, (BigInt(request.amount) * 10n ** 6n).toString(), request.from),
    expectedOutput: money('0.0333', '33300000000000000', request.to),
    grossOutput: money('0.03331', '33310000000000000', request.to),
    fee: { bps: 2, percent: '0.02%', amount: money('0.00001', '10000000000000', request.to) },
    minimumReceived: money('0.0329', '32900000000000000', request.to),
    calldataMinimumReceived: money('0.0329', '32900000000000000', request.to),
    priceImpact: { bps: impactBps, percent: `${(impactBps / 100).toFixed(2)}%` },
    priceImpactWarning: priceImpactWarning(impactBps),
    rate: '0.000333',
    route: [{ percent: '100%', hops: [{ from: request.from, to: request.to, pools: [{ protocol: 1, poolName: 'Pool A', poolAddress: '0x9', percent: '100%' }] }] }],
    gas: { estimatedGasUsed: '190000', estimatedGasUsedInUsd: '0.15' },
  };
}

interface PendingQuote {
  request: QuoteRequest;
  signal: AbortSignal;
  resolve: (q: QuoteSummary) => void;
  reject: (e: unknown) => void;
}

export interface FakeOptions {
  features?: Partial<Features>;
  session?: Session | null;
  sandbox?: boolean;
  /** answer quotes at once with this impact (else they wait for answerQuote) */
  autoQuoteImpactBps?: number;
  requestCode?: (email: string) => Promise<void>;
  balances?: Balances;
  /** balances fail with this */
  balancesError?: Error;
  execute?: () => Promise<Receipt>;
  /** instead of the default success (which reports the step 'waiting' with hash 0xfeed first) */
  executeSend?: (onStep: (step: ExecutionStep) => void) => Promise<Receipt>;
  sendFee?: SendPlanView['fee'];
  /** instead of the default plan (built from the request) */
  plan?: (request: SwapRequest) => Promise<SwapPlanView>;
  history?: HistoryEntry[];
  historySetAside?: string;
  /** the clock of the plans' expiry */
  now?: () => number;
}

export type FakeServices = TuiServices & {
  calls: string[];
  quotes: PendingQuote[];
  closed: boolean;
  settingsView: SettingsView;
};

export function fakeServices(options: FakeOptions = {}): FakeServices {
  let session = options.session ?? null;
  /** each plan's handle is its own: a test can tell which one was signed */
  let plans = 0;
  const fake: FakeServices = {
    calls: [],
    quotes: [],
    closed: false,
    settingsView: { slippageBps: 100, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001', gasToken: 'STRK' },
    features: { balances: false, trade: false, multiSwap: false, batch: false, send: false, history: false, ...options.features },
    async connect() {
      fake.calls.push('connect');
      return { sandbox: options.sandbox ?? true, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001' };
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
      if (code !== '123456') throw new AppError(ErrorCode.INVALID_OTP, 'invalid or expired code', { status: 401 });
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
    async balances() {
      if (options.balancesError) throw options.balancesError;
      return options.balances ?? { available: false, reason: 'no chain reader in the fake' };
    },
    quote(request, { signal }) {
      fake.calls.push(`quote ${request.amount} ${request.from}>${request.to} ${request.slippageBps}`);
      if (options.autoQuoteImpactBps !== undefined) return Promise.resolve(quoteFixture(request, options.autoQuoteImpactBps));
      return new Promise((resolve, reject) => fake.quotes.push({ request, signal, resolve, reject }));
    },
    async plan(request: SwapRequest, _session, { onProgress }): Promise<SwapPlanView> {
      fake.calls.push(`plan ${request.kind} ${request.swaps.map((p) => `${p.amount} ${p.from}>${p.to}`).join(', ')}${request.sends.map((p) => `; send ${p.amount} ${p.token}>${p.to}`).join('')}`);
      onProgress?.('simulating the transaction');
      if (options.plan) return options.plan(request);
      const impact = options.autoQuoteImpactBps ?? 5;
      const quotes = request.swaps.map((pair) => quoteFixture({ ...pair, slippageBps: request.slippageBps }, impact));
      return {
        request,
        headline: quotes.map((q) => `${q.amountIn.amount} ${q.from.symbol} → at least ${q.minimumReceived.amount} ${q.to.symbol}`).join('; '),
        quotes,
        sends: request.sends.map((s) => ({ symbol: s.token, decimals: 18, amount: parseAmount(s.amount, 18), to: parseAddress(s.to, 'recipient') })),
        slippageBps: request.slippageBps,
        impact: priceImpactWarning(impact) === 'very-high' ? 'danger' : priceImpactWarning(impact) === 'high' ? 'warn' : 'ok',
        fee: { mode: 'sponsored' },
        deploysAccount: false,
        calls: request.swaps.flatMap((pair) => [
          { contract: pair.from, entrypoint: 'approve', description: `approve the router to take exactly ${pair.amount} ${pair.from}` },
          { contract: 'router', entrypoint: 'swap', description: `swap ${pair.amount} ${pair.from} for at least 0.0329 ${pair.to}` },
        ]),
        simulatedChanges: request.swaps.flatMap((pair) => [
          { symbol: pair.from, decimals: 6, delta: -(BigInt(pair.amount) * 10n ** 6n) },
          { symbol: pair.to, decimals: 18, delta: 33300000000000000n },
        ]),
        warnings: [],
        expiresAt: (options.now ?? Date.now)() + 30_000,
        handle: `planned-swap-${++plans}`,
      };
    },
    async execute(plan, _session, { onStep }) {
      fake.calls.push(`execute ${plan.handle as string}`);
      onStep({ step: 'submitting' });
      if (options.execute) return options.execute();
      return { headline: 'Swap confirmed', transactionHash: '0xabc', status: 'succeeded', changes: [{ symbol: 'ETH', decimals: 18, delta: 33300000000000000n }], details: ['received 0.0333 ETH (you confirmed at least 0.0329 ETH)'] };
    },
    async history() {
      fake.calls.push('history');
      return { entries: options.history ?? [], setAside: options.historySetAside ?? null };
    },
    checkRecipient(text, current) {
      try {
        const address = parseAddress(text.trim(), 'recipient');
        return BigInt(address) === BigInt(current.walletAddress) ? { problem: 'that is your own wallet: nothing to send' } : { address };
      } catch (error) {
        return { problem: (error as Error).message };
      }
    },
    async planSend(request, _session, { onProgress }) {
      fake.calls.push(`planSend ${request.amount} ${request.token} ${request.to}`);
      onProgress?.('simulating the transaction…');
      const amount = parseAmount(request.amount, 18);
      return {
        token: { symbol: request.token, decimals: 18 },
        amount,
        to: parseAddress(request.to, 'recipient'),
        deploysAccount: false,
        calls: [{ contract: '0x4718', entrypoint: 'transfer', description: `transfer exactly ${request.amount} ${request.token} to ${request.to}` }],
        fee: options.sendFee ?? { mode: 'sponsored' },
        simulatedChanges: [{ symbol: request.token, decimals: 18, delta: -amount }],
        expiresAt: Date.now() + 60_000,
        handle: 'planned',
      };
    },
    async executeSend(plan, _session, { onStep }) {
      fake.calls.push(`executeSend ${plan.handle as string}`);
      if (options.executeSend) return options.executeSend(onStep);
      onStep({ step: 'waiting', detail: '0xfeed' });
      return { headline: `Sent 1 ${plan.token.symbol} to ${plan.to}`, transactionHash: '0xfeed', status: 'succeeded', changes: [{ symbol: plan.token.symbol, decimals: 18, delta: -plan.amount }] };
    },
    async status() {
      return {
        network: 'sandbox',
        sandbox: true,
        swapsSupported: true,
        aggregator: { url: 'http://agg', reachable: true, status: 200, message: 'ok' },
        server: { url: 'http://srv', reachable: false, usable: false, error: 'not reachable (ECONNREFUSED)' },
      };
    },
    settings() {
      return fake.settingsView;
    },
    updateSettings(patch) {
      if (patch.serverUrl !== undefined && !/^https?:\/\//.test(patch.serverUrl)) throw new AppError(ErrorCode.CONFIG_ERROR, 'not saved: serverUrl must be a URL', { status: 400 });
      fake.settingsView = { ...fake.settingsView, ...patch };
      return fake.settingsView;
    },
    tokens() {
      return listTokens('mainnet').map((t) => ({ symbol: t.symbol, name: t.name, decimals: t.decimals }));
    },
    async close() {
      fake.closed = true;
    },
  };
  return fake;
}
