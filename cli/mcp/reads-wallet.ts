/**
 * The wallet's reads (docs/architecture.md "Tool server"): status, session, balances, portfolio.
 * Each a thin mapping over a core function; read-only.
 */
import { formatAmount } from '../../shared/amount.js';
import { ErrorCode, isAppError } from '../../shared/errors.js';
import type { CallOptions } from '../core/call.js';
import type { ToolDeps } from './deps.js';
import { budgetView } from './guards.js';
import { inputs, outputs } from './schemas.js';
import { registerRead } from './read-tool.js';

export function register(deps: ToolDeps): void {
  const { options: o, endpoints: ep, now } = deps;
  /** Under a grant: what the server says it has left (its own token reads it), or why not. */
  const grantView = async (call: CallOptions): Promise<Record<string, unknown> | undefined> => {
    if (ep.grant === undefined) return undefined;
    const { currentGrant } = await import('../core/grants.js');
    try {
      return { ...(await currentGrant(ep, call)) };
    } catch (error) {
      return {
        id: ep.grant.grantId,
        error: isAppError(error) ? error.code : ErrorCode.INTERNAL_ERROR,
      };
    }
  };

  registerRead(
    deps,
    'get_status',
    {
      title: 'Service status',
      description:
        'Which network this server uses, whether the swap aggregator and the auth server answer, and the spending budget set at start: the limit, what was spent and what is left in the rolling window (null when none). Read-only.',
      input: inputs.none,
      output: outputs.status,
      outside: ['message', 'error', 'sandboxError', 'version'],
    },
    async (_input, call) => {
      const [{ statusOf, loadStatusDeps }] = await Promise.all([import('../core/status.js')]);
      const [status, budget, grant] = await Promise.all([
        statusOf(ep, await loadStatusDeps(), call),
        budgetView(o.limits),
        grantView(call),
      ]);
      return { ...status, budget, ...(grant === undefined ? {} : { grant }) };
    },
  );

  registerRead(
    deps,
    'get_session',
    {
      title: 'Who is signed in',
      description:
        'The signed-in person (e-mail), their wallet address, the network and when the session expires; or why no session is usable (then call login).',
      input: inputs.none,
      output: outputs.session,
      hints: { openWorldHint: false },
    },
    async () => {
      const { sessionState } = await import('../core/session.js');
      const state = sessionState(ep, { now });
      const where = { network: ep.networkName, sandbox: ep.sandbox };
      return state.signedIn
        ? { signedIn: true, ...state.session, ...where }
        : { signedIn: false, code: state.code, message: state.message, ...where };
    },
  );

  registerRead(
    deps,
    'get_balances',
    {
      title: 'Wallet balances',
      description:
        "The signed-in wallet's non-zero token balances, exact, each with its USD value at the aggregator's price (null when unpriced), and the total of the priced ones.",
      input: inputs.balances,
      output: outputs.balances,
    },
    async (input, call) => {
      const [{ holdings }, { requireSession }, { resolveToken }] = await Promise.all([
        import('../core/portfolio.js'),
        import('../core/session.js'),
        import('../../shared/tokens.js'),
      ]);
      const session = requireSession(ep, { now });
      const only = input.tokens?.map((t) => resolveToken(ep.network, t).address);
      const held = await holdings(ep, call, now);
      const tokens = held.tokens.filter((t) => only === undefined || only.includes(t.address));
      return {
        network: ep.networkName,
        sandbox: ep.sandbox,
        address: session.address,
        tokens: tokens.map(({ usdCents, ...t }) => ({
          ...t,
          usd: usdCents === undefined ? null : formatAmount(usdCents, 2),
        })),
        totalUsd: formatAmount(
          tokens.reduce((sum, t) => sum + (t.usdCents ?? 0n), 0n),
          2,
        ),
        unpriced: tokens.filter((t) => t.usdCents === undefined).map((t) => t.symbol),
        asOf: held.asOf,
      };
    },
  );

  registerRead(
    deps,
    'get_portfolio',
    {
      title: 'Portfolio',
      description:
        "What the signed-in wallet's holdings are worth: every registry token it holds with its exact amount, USD price, value and share of the priced total (shares add up to exactly 100.00 %), what selling it all at once would fetch, unpriced tokens with the reason (left out of the total, never counted as 0), the total, the positions as lines of their own (staked, exiting and unclaimed STRK, Vesu supplies and collateral as holdings, debt as negative with its health factor) and the net total (wallet + positions), and the prices' age (cached up to 20 s unless fresh).",
      input: inputs.portfolio,
      output: outputs.portfolio,
    },
    async (input, call) => {
      const { portfolio } = await import('../core/portfolio.js');
      return {
        ...(await portfolio(ep, { now, ...(input.fresh === true ? { maxAgeMs: 0 } : {}) }, call)),
      };
    },
  );
}
