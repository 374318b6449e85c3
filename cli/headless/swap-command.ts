/**
 * What every command that moves money shares (`send`, `trade`, `multi-swap`, `batch`): the
 * signing flags, and the run — plan the action (checked and simulated), then without --yes show
 * it and sign nothing (CONFIRMATION_REQUIRED, exit 1, the plan document in `error.details.plan`
 * under --json), with --yes sign exactly that plan — unless what it depends on moved before
 * signing: then nothing is signed and the plan made again is shown (PLAN_CHANGED, exit 5, the new
 * plan in `error.details.plan` under --json). Light at import: the core and the renderers
 * load once the options parse.
 */
import { parseCommandArgs, parseNetworkFlag, refuseNegativeAmount, type ArgToken } from './args.js';
import type { CommandContext, CommandResult } from './context.js';
import type { ActionOptions, ActionRequest } from '../core/actions/index.js';
import { withEndpoints } from './with-endpoints.js';
import { parseSlippageBps } from '../core/actions/rules.js';
import type { Network } from '../../shared/tokens.js';

/** The flags of every signing command. */
export const SIGNING_HELP = `  --yes               sign and send the plan (without it: show the plan, sign nothing, exit 1)
  --gas-token T       pay gas in T (default: sponsored when the server offers it, else the
                      gasToken setting, STRK)
  --max-fee AMOUNT    refuse a plan whose maximum gas fee is above AMOUNT (gas-token units)
  --network NAME      mainnet or sepolia (swaps are mainnet-only)
  --sandbox           use the local sandbox
  --json              one JSON document: the plan (route, minimum received, fee, price impact,
                      gas, simulated balance changes, the calls in words) and, with --yes, the
                      transaction (hash, what arrived, gas paid)
`;

/** The flags of the commands that swap, then every signing flag. */
export const SIGNING_OPTIONS_HELP = `  --slippage PERCENT  tolerance for the minimum received, 0.01–50 (default from settings, 1)
  --allow-high-impact accept a price impact above 15 % (refused otherwise)
  --allow-high-slippage
                      accept a slippage above 15 % (refused otherwise)
${SIGNING_HELP}`;

const SIGNING_FLAGS = {
  yes: { type: 'boolean' },
  'gas-token': { type: 'string' },
  'max-fee': { type: 'string' },
  network: { type: 'string' },
} as const;

const SWAP_FLAGS = {
  slippage: { type: 'string' },
  'allow-high-impact': { type: 'boolean' },
  'allow-high-slippage': { type: 'boolean' },
} as const;

interface SigningOptions extends ActionOptions {
  yes: boolean;
  sandbox: boolean;
  network: Network | undefined;
  help: boolean;
}

/**
 * Flags and arguments of a signing command; `extra` adds its own flags (their values must be
 * strings, or booleans). `swaps: false` (send) takes no slippage or impact flags.
 */
export function parseSigningArgs(
  argv: string[],
  extra: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>,
  { swaps = true }: { swaps?: boolean } = {},
): {
  options: SigningOptions;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** parseArgs' tokens: where each flag and argument stood (`--collateral 1 ETH`'s token). */
  tokens: ArgToken[];
} {
  const valueFlags = new Set([
    '--gas-token',
    '--max-fee',
    '--network',
    ...(swaps ? ['--slippage'] : []),
    ...Object.entries(extra)
      .filter(([, o]) => o.type === 'string')
      .map(([name]) => `--${name}`),
  ]);
  refuseNegativeAmount(argv, valueFlags);
  const parsed = parseCommandArgs(argv, {
    ...SIGNING_FLAGS,
    ...(swaps ? SWAP_FLAGS : {}),
    ...extra,
  });
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const network = parseNetworkFlag(values.network as string | undefined);
  const slippage = values.slippage as string | undefined;
  const options: SigningOptions = {
    yes: values.yes === true,
    sandbox: values.sandbox === true,
    help: values.help === true,
    network,
    slippageBps: slippage === undefined ? undefined : parseSlippageBps(slippage),
    // each acknowledgment the core may ask for, given up front by its flag (output.ts REMEDY_WORDS)
    acknowledged: [
      ...(values['allow-high-impact'] === true ? (['high-impact'] as const) : []),
      ...(values['allow-high-slippage'] === true ? (['high-slippage'] as const) : []),
    ],
    gasToken: values['gas-token'] as string | undefined,
    maxFee: values['max-fee'] as string | undefined,
  };
  return { options, values, positionals: parsed.positionals, tokens: parsed.tokens };
}

/** Plan the action, then show it (no --yes) or sign it (--yes). */
export async function runSigning(
  ctx: CommandContext,
  options: SigningOptions,
  request: ActionRequest,
): Promise<CommandResult> {
  const [core, render, { requireConfirmation }] = await Promise.all([
    import('../core/actions/index.js'),
    import('./plan-render.js'),
    import('../core/actions/document.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: options.sandbox, ...(options.network ? { network: options.network } : {}) },
    async (endpoints, call) => {
      const planned = await core.planAction(endpoints, request, options, call);
      if (!options.yes) {
        // a person reads the plan above the error line; a script gets it in the error document
        if (!ctx.json) ctx.stdout.write(render.renderPlan(planned.document));
        requireConfirmation(false, planned.document);
      }
      return core.executeAction(planned, call).catch(async (error: unknown) => {
        // what the plan depends on moved before signing: nothing was signed; the plan made
        // again is shown as a plan is without --yes (PLAN_CHANGED, exit 5; --json: in
        // error.details.plan)
        const replanned = await core.replannedOf(error);
        if (replanned !== undefined && !ctx.json)
          ctx.stdout.write(render.renderPlan(replanned.document));
        throw error;
      });
    },
  );
  return { data, human: () => render.renderExecution(data) };
}
