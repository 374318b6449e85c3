/**
 * The real services port: the TUI over the headless core (cli/core/) — the same functions the
 * commands use: endpoints (finding or starting the sandbox), the saved session (login, verify,
 * logout), quotes, status, balances, the sandbox outbox — plus the settings.
 *
 * Heavy modules (conf, ky, TypeBox, starknet helpers) load inside connect(), after Ink has drawn
 * its first frame. Sending goes through the core's planSend/executeSend; trades, multi-swaps and
 * batches through planTrade/planMultiSwap/planBatch and executePlan (cli/core/swaps.ts), the
 * history through the same store the `history` command reads.
 */
import { join } from 'node:path';
import type { Endpoints } from '../core/endpoints.js';
import type { SessionView } from '../core/session.js';
import type { Settings } from '../platform/settings.js';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { findToken, listTokens, sameAddress } from '../../shared/tokens.js';
import { parseAddress } from '../core/chain/calls.js';
import { printable } from '../clients/server-error.js';
import type { PlannedSend, SendResult, TokenAmount } from '../core/funds.js';
import type { ExecutionResult, PlannedSwaps } from '../core/swaps.js';
import type { GasQuote } from '../core/swap/checks.js';
import type {
  Balances,
  BalanceChange,
  Call,
  Environment,
  ExecutionStep,
  FeeView,
  HistoryEntry,
  Receipt,
  SendPlanView,
  Session,
  SettingsPatch,
  SettingsView,
  SwapPlanView,
  SwapRequest,
  TuiServices,
} from './services.js';

/** The core's exact amount as a screen's signed change. */
const changeOf = (t: TokenAmount): BalanceChange => ({ symbol: t.symbol, decimals: t.decimals, delta: BigInt(t.baseUnits) });

/** The core's send plan as the review shows it; the planned transaction rides along, opaque. */
function sendPlanView(planned: PlannedSend): SendPlanView {
  const { plan } = planned;
  return {
    token: { symbol: plan.amount.symbol, decimals: plan.amount.decimals },
    amount: BigInt(plan.amount.baseUnits),
    to: plan.to,
    deploysAccount: plan.deploysAccount,
    calls: plan.calls,
    fee:
      plan.fee.mode === 'sponsored'
        ? { mode: 'sponsored' }
        : { mode: 'default', symbol: plan.fee.max.symbol, decimals: plan.fee.max.decimals, estimated: BigInt(plan.fee.estimated.baseUnits), max: BigInt(plan.fee.max.baseUnits) },
    simulatedChanges: plan.simulatedChanges.map(changeOf),
    expiresAt: Date.parse(plan.expiresAt),
    handle: planned,
  };
}

/** The core's execution progress (`send-<stage>`, `swap-<stage>`) as the executing screen's steps. */
function executionStep(step: string, message: string): ExecutionStep | undefined {
  switch (step.replace(/^(send|swap)-/, '')) {
    case 'signing':
      return { step: 'signing' };
    case 'submitting':
      return { step: 'submitting' };
    case 'submitted': {
      // "sent; waiting for confirmation… 0x…": the hash is worth showing while it waits
      const hash = /0x[0-9a-fA-F]+/.exec(message)?.[0];
      return hash === undefined ? { step: 'waiting' } : { step: 'waiting', detail: hash };
    }
    case 'confirmed':
      return { step: 'confirmed' };
    // executePlan re-quotes, re-checks and simulates a plan whose quote went stale first
    case 'requote':
    case 'quote':
    case 'checking-account':
    case 'building':
    case 'simulate':
    case 'fee-mode':
      return { step: 'building', detail: message };
    default:
      return undefined;
  }
}

/** What the wallet holds now against before (read both times: exact), the unchanged left out. */
function sendReceipt(result: SendResult): Receipt {
  const { plan, receipt } = result;
  return {
    headline: `Sent ${plan.amount.amount} ${plan.amount.symbol} to ${plan.to}`,
    transactionHash: receipt.transactionHash,
    status: receipt.status === 'SUCCEEDED' ? 'succeeded' : 'reverted',
    changes: result.balances.map((b) => changeOf(b.change)).filter((c) => c.delta !== 0n),
  };
}

const feeView = (gas: GasQuote): FeeView =>
  gas.mode === 'sponsored' ? gas : { mode: 'default', symbol: gas.token.symbol, decimals: gas.token.decimals, estimated: gas.estimatedFee, max: gas.maxFee };

/** How long before a quote turns stale its review stops taking a confirmation. */
const CONFIRM_MARGIN_MS = 2_000;

/** The core's swap plan as the review shows it; the planned transaction rides along, opaque. */
function swapPlanView(request: SwapRequest, planned: PlannedSwaps, expiryMarginS: number): SwapPlanView {
  const { document } = planned;
  const level = document.priceImpact.level;
  return {
    request,
    headline: document.headline,
    quotes: document.swaps,
    sends: document.sends.map((s) => ({ symbol: s.token.symbol, decimals: s.token.decimals, amount: BigInt(s.amount.baseUnits), to: s.to })),
    slippageBps: planned.slippageBps,
    impact: level === 'high' ? 'danger' : level,
    fee: feeView(planned.gas),
    deploysAccount: planned.prepared.kind === 'deploy_and_invoke',
    calls: document.calls.map((c) => ({ contract: c.contractAddress, entrypoint: c.entrypoint, description: c.description })),
    simulatedChanges:
      document.simulation.status === 'ok'
        ? document.simulation.balanceChanges.map((c) => ({ symbol: c.token.symbol, decimals: c.token.decimals, delta: BigInt(c.change.baseUnits) }))
        : [],
    warnings: document.warnings,
    // The review may be confirmed only while executePlan would sign exactly this build: before
    // the quote's 30 s (less a moment for the key press to reach it) and before the paymaster
    // build's own margin (all a batch of transfers has). Past that, the review plans again.
    expiresAt: Math.min(
      (planned.prepared.expiresAt - expiryMarginS) * 1000,
      document.quoteValidUntil === null ? Infinity : Date.parse(document.quoteValidUntil) - CONFIRM_MARGIN_MS,
    ),
    handle: planned,
  };
}

/** An executed swap plan: the exact balance changes of the receipt, each output against its confirmed minimum, the fee. */
function swapReceipt(result: ExecutionResult): Receipt {
  const { transaction } = result;
  return {
    headline: result.kind === 'trade' ? 'Swap confirmed' : result.kind === 'multi-swap' ? 'Multi-swap confirmed' : 'Batch confirmed',
    transactionHash: transaction.hash,
    status: 'succeeded',
    changes: transaction.balanceChanges
      .filter((c) => c.baseUnits !== '0')
      .map((c) => ({ symbol: c.symbol, decimals: c.decimals, delta: BigInt(c.baseUnits) })),
    details: [
      ...transaction.received.map((r) => `received ${r.amount} ${r.symbol} (you confirmed at least ${r.minimum.amount} ${r.symbol})`),
      transaction.feePaid === null ? 'gas: sponsored' : `gas paid: ${transaction.feePaid.amount} ${transaction.feePaid.symbol}`,
      ...(transaction.historyWarning ? [`history not written: ${transaction.historyWarning}`] : []),
    ],
  };
}

type Modules = Awaited<ReturnType<typeof loadModules>>;

async function loadModules() {
  const [endpoints, account, session, quote, status, settings, settingsStore] = await Promise.all([
    import('../core/endpoints.js'),
    import('../core/account.js'),
    import('../core/session.js'),
    import('../core/quote.js'),
    import('../core/status.js'),
    import('../platform/settings.js'),
    import('../platform/settings-store.js'),
  ]);
  return { endpoints, account, session, quote, status, settings, settingsStore };
}

/** The core's session as the screens show it (a saved session: whether its wallet was new is not kept). */
const sessionOf = (view: SessionView, isExisting = true): Session => ({
  email: view.email,
  userId: view.userId,
  walletId: view.walletId,
  walletAddress: view.address,
  expiresAt: view.expiresAt,
  isExisting,
});

export function createServices(options: { env: NodeJS.ProcessEnv; sandbox: boolean }): TuiServices {
  const { env } = options;
  let modules: Modules | undefined;
  let endpoints: Endpoints | undefined;

  const ready = (): { m: Modules; e: Endpoints } => {
    if (!modules || !endpoints) throw new AppError(ErrorCode.INTERNAL_ERROR, 'not connected yet');
    return { m: modules, e: endpoints };
  };
  const view = (s: Settings): SettingsView => ({ slippageBps: s.slippageBps, network: s.network, serverUrl: s.serverUrl, gasToken: s.gasToken });

  const services: TuiServices = {
    // balances read the sandbox's chain, the rpcUrl setting, or starknet.js's public node
    get features() {
      const connected = endpoints !== undefined;
      return { balances: connected, trade: connected, multiSwap: connected, batch: connected, send: connected, history: connected };
    },

    async connect({ signal }: Call): Promise<Environment> {
      modules ??= await loadModules();
      let startedSandbox = false;
      const found = await modules.endpoints.resolveEndpoints(env, { sandbox: options.sandbox }, { signal, onProgress: (p) => (startedSandbox ||= p.step === 'sandbox-start') });
      endpoints = found;
      let startedChild: Environment['startedChild'];
      if (startedSandbox) startedChild = { what: 'the local sandbox', logFile: join(found.dataDir, 'sandbox-child.log') };
      else if (!found.sandbox) {
        // The bundled auth server, started now when nothing answers at a loopback server URL, so
        // the header can say so. Failing here (no credentials in the environment, a remote URL
        // down) is left to the first call that needs the server, which says it in plain words:
        // balances and quotes work without it.
        const { ensureAuthServer } = await import('../core/auth-server.js');
        const server = await ensureAuthServer(found, { signal }).catch(() => undefined);
        if (server?.started) startedChild = { what: 'the auth server', logFile: join(found.dataDir, 'serve-child.log') };
      }
      return { sandbox: found.sandbox, network: found.network, serverUrl: found.serverUrl, ...(startedChild ? { startedChild } : {}) };
    },

    async currentSession() {
      const { m, e } = ready();
      const state = m.session.sessionState(e);
      return state.signedIn ? sessionOf(state.session) : null;
    },

    async requestCode(email, { signal }) {
      const { m, e } = ready();
      await m.account.login(e, email, { signal });
    },

    async verifyCode(email, code, { signal }) {
      const { m, e } = ready();
      const verified = await m.account.verify(e, email, code, { signal });
      return sessionOf(verified, verified.isExisting);
    },

    async logout() {
      await ready().m.account.logout(env);
    },

    async balances(_current, { signal }): Promise<Balances> {
      const { m, e } = ready();
      const [{ balances }, { usdCentsAt }] = await Promise.all([import('../core/funds.js'), import('../../shared/fees.js')]);
      const held = (await balances(e, {}, { signal })).balances.filter((b) => b.baseUnits !== '0');
      // USD at the aggregator's prices: a route of the whole balance carries its input token's
      // price; a token it cannot route shows "no price" rather than failing the list
      const client = m.quote.aggregatorFor(e, { timeoutMs: 5000, retries: 1 });
      const [usdc, eth] = [findToken(e.network, 'USDC'), findToken(e.network, 'ETH')];
      const tokens = await Promise.all(
        held.map(async (token) => {
          const amount = BigInt(token.baseUnits);
          const quoteIn = token.address === usdc?.address ? eth : usdc;
          const price =
            quoteIn === undefined
              ? undefined
              : await client.getRoute({ amount, tokenIn: token.address, tokenOut: quoteIn.address }, { signal }).then((r) => r.inputToken.price, () => undefined);
          return { symbol: token.symbol, decimals: token.decimals, amount, usdCents: usdCentsAt(amount, token.decimals, price) };
        }),
      );
      return { available: true, tokens, totalUsdCents: tokens.reduce((sum, t) => sum + (t.usdCents ?? 0n), 0n), asOf: new Date().toISOString() };
    },

    async quote(request, { signal }) {
      const { m, e } = ready();
      const result = await m.quote.quote(
        { pairs: [{ amount: request.amount, from: request.from, to: request.to }], multi: false, slippageBps: request.slippageBps },
        m.quote.quoteDeps(e),
        { signal },
      );
      const [quote] = result.quotes;
      if (!quote) throw new AppError(ErrorCode.INVALID_RESPONSE, 'no quote in the answer', { status: 502 });
      return quote;
    },

    async plan(request, _session, { signal, onProgress }) {
      const { e } = ready();
      const swaps = await import('../core/swaps.js');
      // the review asks for the typed word above 15 % impact before anything is signed, so the
      // core plans such a swap instead of refusing it (the headless --allow-high-impact)
      const options = { slippageBps: request.slippageBps, allowHighImpact: true };
      const call = { signal, onProgress: (p: { message: string }) => onProgress?.(p.message) };
      const planned = (): Promise<PlannedSwaps> => {
        switch (request.kind) {
          case 'trade': {
            const [pair] = request.swaps;
            if (pair === undefined || request.swaps.length > 1 || request.sends.length > 0) throw usageError('a trade is exactly one swap');
            return swaps.planTrade(e, pair, options, call);
          }
          case 'multi-swap':
            return swaps.planMultiSwap(e, request.swaps, options, call);
          case 'batch':
            return swaps.planBatch(e, request.swaps, request.sends, options, call);
        }
      };
      return swapPlanView(request, await planned(), swaps.EXPIRY_MARGIN_S);
    },

    async execute(plan, _session, { signal, onStep }) {
      const { executePlan } = await import('../core/swaps.js');
      // Above 15 % impact the review took the typed word for this plan; anything else executes
      // as the headless default, so a re-quote that crossed 15 % on the way is refused.
      const planned = plan.handle as PlannedSwaps;
      const result = await executePlan({ ...planned, allowHighImpact: plan.impact === 'danger' }, {
        signal,
        onProgress: (p) => {
          const step = executionStep(p.step, p.message);
          if (step) onStep(step);
        },
      });
      return swapReceipt(result);
    },

    async history(session) {
      const { e } = ready();
      const { openHistory } = await import('../core/history.js');
      const { entries, setAside } = await openHistory(e.dataDir).list();
      // this wallet's transactions on this network (the file keeps every account's)
      const mine = entries
        .filter((entry) => sameAddress(entry.account, session.walletAddress) && entry.network === e.network && entry.sandbox === e.sandbox)
        .map(
          (entry): HistoryEntry => ({
            // as receipts show it (the store keeps it without leading zeros)
            transactionHash: `0x${BigInt(entry.hash).toString(16).padStart(64, '0')}`,
            at: entry.time,
            kind: entry.kind,
            summary: printable(entry.summary, 500),
            status: entry.status,
            // the chain's words: one printable line (no escape sequences reach the terminal)
            ...(entry.revertReason === undefined ? {} : { revertReason: printable(entry.revertReason) }),
          }),
        );
      return { entries: mine, setAside };
    },

    checkRecipient(text, session) {
      try {
        const address = parseAddress(text.trim(), 'recipient');
        if (BigInt(address) === BigInt(session.walletAddress)) return { problem: 'that is your own wallet: nothing to send' };
        return { address };
      } catch (error) {
        return { problem: error instanceof AppError ? error.message : 'not an address' };
      }
    },

    async planSend(request, _session, { signal, onProgress }) {
      const { e } = ready();
      const { planSend } = await import('../core/funds.js');
      const planned = await planSend(e, { token: request.token, amount: request.amount, to: request.to.trim() }, { signal, onProgress: (p) => onProgress?.(p.message) });
      return sendPlanView(planned);
    },

    async executeSend(plan, _session, { signal, onStep }) {
      const { e } = ready();
      const { executeSend } = await import('../core/funds.js');
      const result = await executeSend(e, plan.handle as PlannedSend, {
        signal,
        onProgress: (p) => {
          const step = executionStep(p.step, p.message);
          if (step) onStep(step);
        },
      });
      return sendReceipt(result);
    },

    async status({ signal }) {
      const { m, e } = ready();
      return m.status.statusOf(e, await m.status.loadStatusDeps(), { signal });
    },

    settings() {
      return view(ready().m.settings.loadSettings(env));
    },

    updateSettings(patch: SettingsPatch) {
      const { m } = ready();
      const store = m.settingsStore.openSettingsStore(env);
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const problem = m.settings.settingsProblem({ ...store.store, ...defined });
      if (problem !== undefined) throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${problem}`, { status: 400 });
      try {
        store.set(defined);
      } catch (error) {
        throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${(error as Error).message}`, { status: 400 });
      }
      return view(m.settings.loadSettings(env));
    },

    async sandboxCode(email, { signal }) {
      const { m, e } = ready();
      try {
        return (await m.account.readOutbox(e, email, { signal })).code;
      } catch (error) {
        if (error instanceof AppError && error.code === ErrorCode.NOT_FOUND) return null;
        throw error;
      }
    },

    tokens() {
      return listTokens(endpoints?.network ?? 'mainnet').map((t) => ({ symbol: t.symbol, name: t.name, decimals: t.decimals }));
    },

    async close() {
      const release = endpoints?.release;
      endpoints = undefined;
      await release?.();
    },
  };
  return services;
}
