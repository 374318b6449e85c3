/**
 * What the staking commands share (`stake`, `unstake [--complete]`, `claim-rewards`; docs/commands.md
 * "Staking"): the signing flags plus `--validator NAME|ADDRESS`. An absent validator is passed on
 * as '' for the core to refuse in its own words. Light at import.
 */
import { parseSigningArgs } from './swap-command.js';

/** Parse a staking command's flags; `extra` adds its own. */
export function parseStakingArgs(
  argv: string[],
  extra: Record<string, { type: 'string' | 'boolean' }> = {},
) {
  const parsed = parseSigningArgs(
    argv,
    { validator: { type: 'string' }, ...extra },
    { swaps: false },
  );
  return { ...parsed, validator: (parsed.values.validator as string | undefined) ?? '' };
}
