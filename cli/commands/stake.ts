/**
 * `finance-tui stake AMOUNT [TOKEN] --validator NAME|ADDRESS [--yes]`: STRK into a validator's
 * delegation pool — an action of the one pipeline (cli/core/actions, the `stake` leg type). The
 * first stake enters the pool, later ones add to it: chosen from the chain, never guessed.
 */
import type { CommandRun } from '../headless/context.js';
import { parseStakingArgs } from '../headless/staking-command.js';
import { runSigning, SIGNING_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui stake <amount> [STRK] --validator NAME|ADDRESS [options]

Stakes <amount> STRK with a validator: its delegation pool (approve exactly the amount, then enter
the pool, or add to your stake when you are a member already). NAME is a preset validator (see
\`finance-tui staking\`), ADDRESS any staker address. A validator that is leaving is refused.
Rewards accrue per epoch to your account; claim them with \`claim-rewards\`. Works on mainnet and
sepolia (and the mainnet-like sandbox). Signs nothing unless --yes is given.

  --validator V       the validator: a preset name or a staker address (required)
${SIGNING_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals, validator } = parseStakingArgs(ctx.argv);
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length < 1 || positionals.length > 2)
    throw usageError('expected <amount> [TOKEN]; see finance-tui stake --help');
  const [amount = '', token] = positionals;
  return runSigning(ctx, options, {
    kind: 'stake',
    stake: { amount, token, validator },
  });
};
