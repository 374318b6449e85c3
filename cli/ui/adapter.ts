/**
 * The real services port: the TUI over the headless core (cli/core/) — the same functions the
 * commands use: endpoints (finding or starting the sandbox), the saved session (login, verify,
 * logout), quotes, status, balances, the sandbox outbox — plus the settings.
 *
 * Heavy modules (ky, TypeBox, starknet helpers) load inside connect(), after Ink has drawn
 * its first frame. Every plan — a send, a trade, a multi-swap, a batch — goes through the core's
 * one pipeline (planAction/executeAction, cli/core/actions); prices, the rules and expiry are the
 * core's, so this adapter only maps shapes. The
 * history through the same store the `history` command reads.
 */
import { join } from 'node:path';
import type { Endpoints } from '../core/endpoints.js';
import type { SessionView } from '../core/session.js';
import type { Settings } from '../platform/settings.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { watchLockWaits } from '../../shared/fs.js';
import { ACTION_KINDS, byKind } from '../core/actions/kinds.js';
import type { ParamType, ParamValues } from '../core/actions/kind-params.js';
import { spendWords } from '../core/actions/spend-words.js';
import { PlanChanged } from './plan-changed.js';
import { listTokens } from '../../shared/tokens.js';
import type { ActionRequest, ExecutionResult, PlannedWalletAction } from '../core/actions/index.js';
import type { GasQuote } from '../core/actions/checks.js';
import type {
  Balances,
  Call,
  Environment,
  FeeView,
  HistoryEntry,
  PlanHandle,
  PlanRequest,
  PlanView,
  Receipt,
  Session,
  SettingsPatch,
  SettingsView,
  TuiServices,
} from './services.js';

const feeView = (gas: GasQuote): FeeView =>
  gas.mode === 'sponsored'
    ? gas
    : {
        mode: 'default',
        symbol: gas.token.symbol,
        decimals: gas.token.decimals,
        estimated: gas.estimatedFee,
        max: gas.maxFee,
      };

/**
 * Where the screens' request holds each parameter type (the app's forms: a swap row, a send row,
 * the staking and lending forms, the rebalance settings); a parameter type the app does not
 * place fails typecheck here.
 */
const PLACE: {
  readonly [T in ParamType]: (request: PlanRequest, name: string) => ParamValues[T] | undefined;
} = {
  amount: (r, name) =>
    name === 'collateralAmount'
      ? r.lending?.collateralAmount
      : (r.lending?.amount ?? r.staking?.amount ?? r.sends[0]?.amount ?? r.swaps[0]?.amount ?? ''),
  'amount-or-all': (r) => r.lending?.amount ?? '',
  // a lending form's token is the position's debt token; its collateral is the collateral's
  token: (r, name) =>
    name === 'from'
      ? (r.swaps[0]?.from ?? '')
      : name === 'to'
        ? (r.swaps[0]?.to ?? '')
        : name === 'collateral'
          ? (r.lending?.collateral ?? '')
          : name === 'debt'
            ? (r.lending?.token ?? '')
            : (r.lending?.token ??
              r.sends[0]?.token ??
              (name === 'token' && r.staking ? undefined : '')),
  address: (r) => r.sends[0]?.to ?? '',
  validator: (r) => r.staking?.validator ?? '',
  pool: (r) => r.lending?.pool,
  pairs: (r) => r.swaps,
  transfers: (r) => r.sends,
  supplies: (r) => r.supplies,
  stakes: (r) => r.stakes,
  allocation: (r) => r.rebalance?.target ?? '',
  percent: (r) => r.rebalance?.band,
  usd: (r) => r.rebalance?.minTrade,
  switch: (r) => r.rebalance?.sellUnlisted,
};

/** The screens' request as the core's typed action request, through the kind's declaration. */
function actionRequest(request: PlanRequest): ActionRequest {
  const info = ACTION_KINDS[request.kind];
  const values = Object.fromEntries(
    Object.entries(info.params).map(([name, p]) => [name, PLACE[p.type](request, name)]),
  );
  return info.request(values as never);
}

/** The core's plan document in the screens' terms; `handle` names the planned transaction. */
export function planView(
  request: PlanRequest,
  planned: Pick<PlannedWalletAction, 'document' | 'slippageBps' | 'gas' | 'confirmBy'>,
  handle: PlanHandle,
): PlanView {
  const { document } = planned;
  const level = document.priceImpact.level;
  return {
    request,
    headline: document.headline,
    // what leaves, where the headline does not say it (a swap's, a send's, a stake's does): a
    // lending position's plan, and any bound ("at most")
    terms:
      document.terms.length > 0 || document.spend.some((s) => s.expected !== null)
        ? [
            ...document.spend
              .filter((s) => s.amount.baseUnits !== '0')
              .map((s) => `leaves the wallet: ${spendWords(s, false)}`),
            ...document.terms,
          ]
        : [],
    quotes: document.swaps,
    sends: document.sends.map((s) => ({
      symbol: s.token.symbol,
      decimals: s.token.decimals,
      amount: BigInt(s.amount.baseUnits),
      to: s.to,
    })),
    slippageBps: planned.slippageBps,
    impact: level,
    fee: feeView(planned.gas),
    deploysAccount: document.deploysAccount,
    calls: document.calls.map((c) => ({
      contract: c.contractAddress,
      entrypoint: c.entrypoint,
      description: c.description,
    })),
    simulatedChanges:
      document.simulation.status === 'ok'
        ? document.simulation.balanceChanges.map((c) => ({
            symbol: c.token.symbol,
            decimals: c.token.decimals,
            delta: BigInt(c.change.baseUnits),
          }))
        : [],
    warnings: document.warnings,
    acknowledgments: document.acknowledgments,
    ...(document.rebalance === undefined ? {} : { rebalance: document.rebalance }),
    expiresAt: planned.confirmBy,
    handle,
  };
}

const HEADLINES: Record<ExecutionResult['kind'], string> = byKind((k) => k.done);

/** "Sent 1.5 STRK to 0x…": exact, with the whole recipient address. */
function sentHeadline(result: ExecutionResult): string {
  const [send] = result.sends;
  return send === undefined
    ? HEADLINES.send
    : `${HEADLINES.send} ${send.amount.amount} ${send.amount.symbol} to ${send.to}`;
}

/** An executed plan: the exact balance changes of the receipt, each output against its confirmed minimum, the fee. */
export function receiptOf(result: ExecutionResult): Receipt {
  const { transaction } = result;
  return {
    headline: result.kind === 'send' ? sentHeadline(result) : HEADLINES[result.kind],
    transactionHash: transaction.hash,
    status: 'succeeded',
    changes: transaction.balanceChanges
      .filter((c) => c.baseUnits !== '0')
      .map((c) => ({ symbol: c.symbol, decimals: c.decimals, delta: BigInt(c.baseUnits) })),
    details: [
      // an exit's receipt says what is exiting now and when it can be withdrawn (the leg's terms)
      ...(result.kind === 'unstake' ? result.terms : []),
      ...transaction.received.map(
        (r) =>
          `received ${r.amount} ${r.symbol} (you confirmed at least ${r.minimum.amount} ${r.symbol})`,
      ),
      transaction.feePaid === null
        ? 'gas: sponsored'
        : `gas paid: ${transaction.feePaid.amount} ${transaction.feePaid.symbol}`,
      ...(transaction.deployedAccount ? ['your account was deployed with this transaction'] : []),
      ...(transaction.historyWarning ? [`history not written: ${transaction.historyWarning}`] : []),
    ],
  };
}

type Modules = Awaited<ReturnType<typeof loadModules>>;

async function loadModules() {
  const [endpoints, account, session, quote, status, settings, rules] = await Promise.all([
    import('../core/endpoints.js'),
    import('../core/account.js'),
    import('../core/session.js'),
    import('../core/quote.js'),
    import('../core/status.js'),
    import('../platform/settings.js'),
    import('../core/actions/rules.js'),
  ]);
  return { endpoints, account, session, quote, status, settings, rules };
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
  // the core's plans behind the handles the screens hold
  const plans = new WeakMap<PlanHandle, PlannedWalletAction>();

  const ready = (): { m: Modules; e: Endpoints } => {
    if (!modules || !endpoints) throw new AppError(ErrorCode.INTERNAL_ERROR, 'not connected yet');
    return { m: modules, e: endpoints };
  };
  const view = (s: Settings): SettingsView => ({
    slippageBps: s.slippageBps,
    network: s.network,
    serverUrl: s.serverUrl,
    gasToken: s.gasToken,
  });

  const services: TuiServices = {
    // balances read the sandbox's chain, the rpcUrl setting, or starknet.js's public node
    get features() {
      const connected = endpoints !== undefined;
      return {
        balances: connected,
        trade: connected,
        multiSwap: connected,
        batch: connected,
        send: connected,
        history: connected,
        portfolio: connected,
      };
    },

    async connect({ signal }: Call): Promise<Environment> {
      modules ??= await loadModules();
      let startedSandbox = false;
      const found = await modules.endpoints.resolveEndpoints(
        env,
        { sandbox: options.sandbox },
        { signal, onProgress: (event) => (startedSandbox ||= event.kind === 'sandbox-start') },
      );
      endpoints = found;
      let startedChild: Environment['startedChild'];
      if (startedSandbox)
        startedChild = {
          what: 'the local sandbox',
          logFile: join(found.dataDir, 'sandbox-child.log'),
        };
      else if (!found.sandbox) {
        // The bundled auth server, started now when nothing answers at a loopback server URL, so
        // the header can say so. Failing here (no credentials in the environment, a remote URL
        // down) is left to the first call that needs the server, which says it in plain words:
        // balances and quotes work without it.
        const { ensureAuthServer } = await import('../core/auth-server.js');
        const server = await ensureAuthServer(found, { signal }).catch(() => undefined);
        if (server?.started)
          startedChild = {
            what: 'the auth server',
            logFile: join(found.dataDir, 'serve-child.log'),
          };
      }
      const urls = {
        server: found.serverUrl,
        aggregator: found.aggregatorUrl,
        chain: found.rpcUrl,
        paymaster: found.paymasterUrl,
        identity: found.identityUrl,
      };
      return {
        sandbox: found.sandbox,
        network: found.network,
        serverUrl: found.serverUrl,
        urls,
        ...(startedChild ? { startedChild } : {}),
      };
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
      const { e } = ready();
      const { holdings } = await import('../core/portfolio.js');
      const held = await holdings(e, { signal });
      return {
        available: true,
        tokens: held.tokens.map((t) => ({
          symbol: t.symbol,
          decimals: t.decimals,
          amount: BigInt(t.baseUnits),
          usdCents: t.usdCents,
        })),
        totalUsdCents: held.totalUsdCents,
        asOf: held.asOf,
      };
    },

    async staking({ signal }) {
      const { e } = ready();
      const { stakingPositions } = await import('../core/staking.js');
      return stakingPositions(e, {}, { signal });
    },

    async lending({ signal }) {
      const { e } = ready();
      const { lendingPositions } = await import('../core/lending.js');
      return lendingPositions(e, {}, { signal });
    },

    async portfolio({ signal, fresh }) {
      const { e } = ready();
      const { portfolio } = await import('../core/portfolio.js');
      return portfolio(e, fresh === true ? { maxAgeMs: 0 } : {}, { signal });
    },

    async quote(request, { signal }) {
      const { m, e } = ready();
      const result = await m.quote.quote(
        {
          pairs: [{ amount: request.amount, from: request.from, to: request.to }],
          multi: false,
          slippageBps: request.slippageBps,
        },
        m.quote.quoteDeps(e),
        { signal },
      );
      const [quote] = result.quotes;
      if (!quote) throw new AppError(ErrorCode.INVALID_RESPONSE, 'no quote in the answer');
      return quote;
    },

    async plan(request, _session, { signal, onProgress }) {
      const { e } = ready();
      const [actions, { describeEvent }] = await Promise.all([
        import('../core/actions/index.js'),
        import('../core/events.js'),
      ]);
      // the review asks for the typed word for each acknowledgment the plan lists (a price impact
      // or a slippage above 15 %, …) before anything is signed, so the core lists them instead
      // of refusing (the headless flags give them up front)
      const planned = await actions.planAction(
        e,
        actionRequest(request),
        { slippageBps: request.slippageBps, askAtConfirmation: true },
        { signal, onProgress: (event) => onProgress?.(describeEvent(event)) },
      );
      const handle = Object.freeze({}) as PlanHandle;
      plans.set(handle, planned);
      return planView(request, planned, handle);
    },

    async execute(plan, _session, { signal, onStep }) {
      const planned = plans.get(plan.handle);
      if (planned === undefined)
        throw new AppError(ErrorCode.INTERNAL_ERROR, 'this plan was not made here: plan it again');
      const { executeAction, replannedOf } = await import('../core/actions/index.js');
      // The review took the typed word for exactly the acknowledgments this plan listed; one a
      // re-quote adds on the way (an impact that crossed 15 %) is refused by the core.
      const result = await executeAction(
        planned,
        {
          signal,
          onProgress: (event) =>
            event.kind !== 'sandbox-start' && event.kind !== 'server-start' && onStep(event),
        },
        { acknowledged: plan.acknowledgments.map((a) => a.id) },
      ).catch(async (error: unknown) => {
        const replanned = await replannedOf(error);
        if (replanned === undefined || !(error instanceof AppError)) throw error;
        // nothing was signed: the plan made again goes back to the review, what moved said
        const handle = Object.freeze({}) as PlanHandle;
        plans.set(handle, replanned);
        const changes = Array.isArray(error.details?.changes)
          ? error.details.changes.map(String)
          : [];
        throw new PlanChanged(
          {
            ...planView(plan.request, replanned, handle),
            changed: { changes, before: [plan.headline, ...plan.terms] },
          },
          error.message,
        );
      });
      return receiptOf(result);
    },

    async history(session, { signal }) {
      const { e } = ready();
      // the wallet's liquidations, read from the chain beside the file (cli/core/lending.ts)
      const liquidated = import('../core/lending.js').then((m) =>
        m.walletLiquidations(e, { signal }),
      );
      liquidated.catch(() => undefined);
      const [{ openHistory }, { chainOf, endpointsLookup, walletHistory }] = await Promise.all([
        import('../core/history.js'),
        import('../core/reconcile.js'),
      ]);
      // pending entries are settled from the chain first (bounded); no chain to ask: as stored
      const lookup = await endpointsLookup(e).catch(() => undefined);
      const scope = {
        account: session.walletAddress,
        network: e.network,
        sandbox: e.sandbox,
        chain: chainOf(e),
      };
      const { entries, setAside } = await walletHistory(openHistory(e.dataDir), scope, { lookup });
      const mine = entries.map((entry): HistoryEntry => ({
        // 0x + 64 hex, as receipts show it; none when the paymaster's answer was lost
        transactionHash: entry.hash ?? 'not received (the answer was lost)',
        at: entry.time,
        kind: entry.kind,
        // printable already: the history cleans every entry it reads (core/history.ts)
        summary: entry.summary,
        status: entry.status,
        ...(entry.revertReason === undefined ? {} : { revertReason: entry.revertReason }),
        ...(entry.fee === undefined ? {} : { fee: `${entry.fee.amount} ${entry.fee.symbol}` }),
        ...(entry.contradiction === undefined ? {} : { contradiction: entry.contradiction }),
      }));
      const { liquidations, note } = await liquidated;
      return {
        entries: mine,
        setAside,
        liquidations: [...liquidations].reverse(),
        liquidationsNote: note,
      };
    },

    checkRecipient(text, session) {
      const { m, e } = ready();
      try {
        return {
          address: m.rules.checkRecipient(text, {
            network: e.network,
            account: session.walletAddress,
          }),
        };
      } catch (error) {
        return { problem: error instanceof AppError ? error.message : 'not an address' };
      }
    },

    async status({ signal }) {
      const { m, e } = ready();
      return m.status.statusOf(e, await m.status.loadStatusDeps(), { signal });
    },

    settings() {
      return view(ready().m.settings.loadSettings(env));
    },

    async updateSettings(patch: SettingsPatch) {
      const { m } = ready();
      await m.settings.saveSettings(env, patch);
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

    watchLockWaits,

    tokens() {
      return listTokens(endpoints?.network ?? 'mainnet').map((t) => ({
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
      }));
    },

    async close() {
      const release = endpoints?.release;
      endpoints = undefined;
      await release?.();
    },
  };
  return services;
}
