/**
 * What `trade`, `multi-swap` and `batch` share: their signing flags, and the run — plan (checked
 * and simulated), then without --yes show it and sign nothing (CONFIRMATION_REQUIRED, exit 1, the
 * plan document in `error.details.plan` under --json), with --yes sign exactly that plan.
 * Light at import: the core and the renderers load once the options parse.
 */
import { parseCommandArgs, refuseNegativeAmount } from './args.js';
import type { CommandContext, CommandResult } from './context.js';
import type { CallOptions } from '../core/call.js';
import type { Endpoints } from '../core/endpoints.js';
import type { PlannedSwaps, SwapRequestOptions } from '../core/swaps.js';
import { withEndpoints } from './with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import { parseSlippageBps } from '../../shared/slippage.js';
import type { Network } from '../../shared/tokens.js';

export const SIGNING_OPTIONS_HELP = `  --yes               sign and send the plan (without it: show the plan, sign nothing, exit 1)
  --slippage PERCENT  tolerance for the minimum received, 0.01–50 (default from settings, 1)
  --allow-high-impact accept a price impact above 15 % (refused otherwise)
  --gas-token T       pay gas in T (default: sponsored when the server offers it, else the
                      gasToken setting, STRK)
  --network NAME      mainnet or sepolia (swaps are mainnet-only)
  --sandbox           use the local sandbox
  --json              one JSON document: the plan (route, minimum received, fee, price impact,
                      gas, simulated balance changes, the calls in words) and, with --yes, the
                      transaction (hash, what arrived, gas paid)
`;

const SIGNING_FLAGS = {
  yes: { type: 'boolean' },
  slippage: { type: 'string' },
  'allow-high-impact': { type: 'boolean' },
  'gas-token': { type: 'string' },
  network: { type: 'string' },
} as const;

export interface SigningOptions extends SwapRequestOptions {
  yes: boolean;
  sandbox: boolean;
  network: Network | undefined;
  help: boolean;
}

/** Flags and arguments of a signing command; `extra` adds its own flags (their values must be strings). */
export function parseSigningArgs(
  argv: string[],
  extra: Record<string, { type: 'string'; multiple?: boolean }>,
): { options: SigningOptions; values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  const valueFlags = new Set(['--slippage', '--gas-token', '--network', ...Object.keys(extra).map((name) => `--${name}`)]);
  refuseNegativeAmount(argv, valueFlags);
  const parsed = parseCommandArgs(argv, { ...SIGNING_FLAGS, ...extra });
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const network = values.network as string | undefined;
  if (network !== undefined && network !== 'mainnet' && network !== 'sepolia') throw usageError(`--network must be mainnet or sepolia (got "${network}")`);
  const slippage = values.slippage as string | undefined;
  const options: SigningOptions = {
    yes: values.yes === true,
    sandbox: values.sandbox === true,
    help: values.help === true,
    network: network as Network | undefined,
    slippageBps: slippage === undefined ? undefined : parseSlippageBps(slippage),
    allowHighImpact: values['allow-high-impact'] === true,
    gasToken: values['gas-token'] as string | undefined,
  };
  return { options, values, positionals: parsed.positionals };
}

/** Plan, then show it (no --yes) or sign it (--yes). */
export async function runSigning(
  ctx: CommandContext,
  options: SigningOptions,
  plan: (endpoints: Endpoints, call: CallOptions, core: typeof import('../core/swaps.js')) => Promise<PlannedSwaps>,
): Promise<CommandResult> {
  const [core, render, { requireConfirmation }] = await Promise.all([import('../core/swaps.js'), import('./plan-render.js'), import('../core/swap/document.js')]);
  const data = await withEndpoints(ctx, { sandbox: options.sandbox, ...(options.network ? { network: options.network } : {}) }, async (endpoints, call) => {
    const planned = await plan(endpoints, call, core);
    if (!options.yes) {
      // a person reads the plan above the error line; a script gets it in the error document
      if (!ctx.json) ctx.stdout.write(render.renderPlan(planned.document));
      requireConfirmation(false, planned.document);
    }
    return core.executePlan(planned, call);
  });
  return { data, human: () => render.renderExecution(data) };
}
