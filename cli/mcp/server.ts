/**
 * The tool-server face (docs/architecture.md "Tool server"): an MCP server whose tools are thin
 * mappings over the same core functions the headless commands call — quote, holdings, portfolio,
 * walletHistory, status, login/verify, sessionState, planAction/executeAction, readTransaction.
 * It never copies a flow. Consent is never implicit: execute_plan is refused unless the server
 * was started with --allow-execute, then asks the person through the host (elicitation) where the
 * host can, and otherwise takes only a plan made less than 30 s before — and then only on a server
 * started with caps (a per-plan cap and a budget; a recipient list for plans that pay a third
 * party), since no person is in the loop. Caps are the core's (actions/caps.ts, budget.ts,
 * actions/recipients.ts), checked before signing. Domain failures are tool results with isError
 * and our stable code, never protocol errors and never stacks. Outside text (the chain's, the
 * aggregator's, a server's words) sits only inside objects named `untrusted` (untrusted.ts).
 *
 * The root is small: the server, its instructions and the one way a tool call runs; the tools
 * are registered by group, each group a module with one `register` (reads-wallet.ts,
 * reads-chain.ts, sign-in.ts, plans.ts over plan-store.ts, execute.ts).
 */
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { isAppError } from '../../shared/errors.js';
import { packageVersion } from '../../shared/version.js';
import { ACTION_KIND_NAMES, ACTION_KINDS } from '../core/actions/kinds.js';
import type { CallOptions } from '../core/call.js';
import type { ToolDeps, ToolServerOptions } from './deps.js';
import { register as registerExecute } from './execute.js';
import { RECIPIENT_FLAG } from './guards.js';
import { planStore } from './plan-store.js';
import { register as registerPlans } from './plans.js';
import { progressReporter } from './progress.js';
import { register as registerChainReads } from './reads-chain.js';
import { register as registerWalletReads } from './reads-wallet.js';
import { register as registerSignIn } from './sign-in.js';
import { jsonSafe, ok, toolError, type ToolResult } from './tool-result.js';
import { UNTRUSTED_NOTE, withUntrusted } from './untrusted.js';

export type { ToolServerOptions } from './deps.js';
export { toolError, toolText } from './tool-result.js';

const INSTRUCTIONS = (o: ToolServerOptions): string =>
  [
    'finance-tui: a Starknet wallet (app-managed, keys in the identity provider) that swaps and sends tokens, stakes STRK with validators (native staking), and supplies, borrows and repays on Vesu lending pools; batches combine them in one transaction. Swaps run on mainnet only; staking and lending on mainnet and sepolia. Amounts are exact decimal strings in token units; every figure comes back with its base units.',
    'Sign in: login(email) sends a 6-digit code; ask the person for it, then verify(email, code). get_session says who is signed in.',
    `Intended flow for moving money: 1) explore (read-only): get_balances, get_portfolio, get_quote (swaps), get_staking (validators, staked, rewards, exits), get_lending (supplied, borrows, health factors); 2) plan — a checked, simulated plan and a planId, nothing is signed: ${ACTION_KIND_NAMES.map((k) => ACTION_KINDS[k].tool).join(' / ')}; 3) show the person the plan headline, what leaves, what arrives (the minimum received, or a bound where the chain decides the amount), the fee, the recipient and, for lending, the health factor before → after, and get their confirmation; 4) execute_plan(planId) within 30 s of planning (or after the host asks the person to confirm). A plan is signed at most once; an expired plan is refused: plan again.`,
    o.allowExecute
      ? `Execution is enabled on this server${o.capsText ? ` with caps: ${o.capsText}` : ''}; a plan over a cap is refused before signing.`
      : 'This server is read-only: plans can be made and shown, execute_plan is refused (the person must restart it with --allow-execute).',
    o.allowExecute
      ? `On a host that cannot ask the person to confirm (no elicitation), execute_plan runs only on a server started with --max-usd and --budget-usd (and, for a plan that pays someone, ${RECIPIENT_FLAG}).`
      : '',
    'Errors are results with isError and {"error":{"code","message"}}: act on the message (e.g. QUOTE_CHANGED or CONFIRMATION_REQUIRED: plan again; PLAN_CHANGED: nothing was signed, show the person the new plan in details.plan and execute details.planId once they confirm it; AUTH_REQUIRED or SESSION_EXPIRED: the person signs in again — login, then verify with the code they read to you; BUDGET_EXCEEDED, LIMIT_EXCEEDED or RECIPIENT_NOT_ALLOWED: tell the person, do not split or reroute the payment to get around it; ORACLE_PRICE_UNAVAILABLE, SWAP_BELOW_ORACLE, POOL_PRICE_DISAGREES or PINNED_ADDRESS_MISMATCH: the prices or addresses could not be checked against an independent source, so tell the person and do not retry through another route or pool).',
    UNTRUSTED_NOTE,
  ]
    .filter(Boolean)
    .join('\n');

export function createToolServer(o: ToolServerOptions): McpServer {
  const server = new McpServer(
    { name: 'finance-tui', version: packageVersion() },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS(o) },
  );
  const handle = async (
    ctx: ServerContext,
    outside: readonly string[],
    work: (call: CallOptions) => Promise<Record<string, unknown>>,
    hint?: (error: unknown) => string | undefined,
  ): Promise<ToolResult> => {
    const signal = ctx.mcpReq.signal;
    const progress = await progressReporter(ctx, o.log);
    try {
      const data = jsonSafe(await work({ signal, onProgress: progress })) as Record<
        string,
        unknown
      >;
      return ok(withUntrusted(data, outside));
    } catch (error) {
      if (!isAppError(error))
        o.log(
          `internal error: ${o.endpoints.env.FINANCE_TUI_DEBUG === '1' ? ((error as Error)?.stack ?? String(error)) : String((error as Error)?.message ?? error).slice(0, 300)}`,
        );
      return toolError(error, hint?.(error), o.endpoints);
    } finally {
      await progress.stop();
    }
  };
  const deps: ToolDeps = {
    server,
    options: o,
    endpoints: o.endpoints,
    now: o.now ?? Date.now,
    handle,
  };
  const plans = planStore(deps);
  registerWalletReads(deps);
  registerChainReads(deps);
  registerSignIn(deps);
  registerPlans(deps, plans);
  registerExecute(deps, plans);
  return server;
}
