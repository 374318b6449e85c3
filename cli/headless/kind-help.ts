/**
 * The headless help's own words for a kind's command, where it says more than the kind's
 * `about` (cli/core/actions/kinds.ts): the flags by name, the other commands. A kind without an
 * entry is helped with its `about` (kind-command.ts helpOf).
 */
import type { ActionKind } from '../core/actions/kinds.js';

export const HELP_PROSE: Partial<Record<ActionKind, string>> = {
  send: `Sends <amount> (token units, e.g. 1.5) of <token> (symbol or address) to the address <to>.
Shows the plan — fee, balance changes from a simulation of exactly what would be signed — and
signs nothing unless --yes is given. The same as \`batch --send "<amount> <token>><to>"\`.`,
  trade: `Swaps <amount> of <from> for <to> (symbols or addresses; amounts in token units, e.g. 0.5):
quote → calldata → checks → simulation of exactly what would be signed. Without --yes it shows
the plan and signs nothing; with --yes it signs one transaction: approve(router, exactly the
amount) then swap.`,
  'multi-swap': `2–3 swaps in one transaction: approve1, swap1, approve2, swap2, … Pairs with one output token
are quoted in one batch request; otherwise one request per pair, in parallel. More than 3 pairs
is BATCH_LIMIT_EXCEEDED; for one swap, use trade. Without --yes it shows the plan and signs
nothing.`,
  rebalance: `Moves the wallet to a target allocation in one transaction: approve exactly → swap for each
leg, with every swap check, the simulation, the 30 s re-quote rule and --yes. Mainnet (and the
sandbox) only. The targets are percentages that must add up to 100. Tokens the target does not
name are kept, and the shares are of what the named tokens are worth together; with
--sell-unlisted they are sold and the shares are of the whole wallet. When every token is
within the band of its target nothing is signed ("already balanced", exit 0). Otherwise every
token goes back to its target: legs sell the largest surplus into the largest deficit, every
leg in one transaction (at most 8 swaps, each priced with its own route request, in parallel).
A run that could not end within the band (more legs than that, legs below --min-trade, or the
simulated allocation after it) is refused before signing (REBALANCE_OUTSIDE_BAND). The preview
shows token, now %, target %, after % (from the simulation), fees, gas and the worst-case
minimums.`,
  stake: `Stakes <amount> STRK with a validator: its delegation pool (approve exactly the amount, then enter
the pool, or add to your stake when you are a member already). NAME is a preset validator (see
\`finance-tui staking\`), ADDRESS any staker address. A validator that is leaving is refused.
Rewards accrue per epoch to your account; claim them with \`claim-rewards\`. Works on mainnet and
sepolia (and the mainnet-like sandbox). Signs nothing unless --yes is given.`,
  unstake: `unstake <amount> starts the exit of <amount> STRK from the validator's pool: it stops earning and
can be withdrawn once the exit window has passed (7 days on mainnet, 5 minutes on sepolia; read
from the contract). 0 cancels a running exit. A new exit REPLACES a running one and RESTARTS its
timer: that needs --restart-exit. unstake --complete withdraws the exited amount once the window
has passed (before: refused with the time left, nothing signed).`,
  'claim-rewards': `Claims the unclaimed rewards of your stake with a validator: the pool pays exactly that amount of
STRK to your reward address (your account, unless it was changed: the plan says so).`,
  supply: `Supplies <amount> TOKEN to a Vesu pool to earn interest, through the pool's vToken (ERC-4626):
approve the vToken for exactly the amount, then deposit; the shares come to your account and grow
in value as borrowers pay interest. See \`finance-tui lending\`; \`withdraw\` takes it back.
Signs nothing unless --yes is given.`,
  withdraw: `Withdraws <amount> of a token you supplied to a Vesu pool (the vToken's withdraw), or all of it
(a redeem of every vToken share you hold: nothing is left behind). A pool that lends out too much
to pay you back now is refused before signing. Signs nothing unless --yes is given.`,
  borrow: `Borrows <amount> TOKEN from a Vesu pool against collateral: --collateral "1 ETH" deposits 1 ETH
with the borrow (approving the pool for exactly that), --collateral ETH borrows against what the
position holds already — one modify_position. Before signing: the health factor after the borrow
(collateral value × max LTV / debt value, at the pool's own prices) — at or below 1 refused, below
1.2 only with --accept-low-health — and the pool's debt floor, cap, utilisation limit and oracle.
Signs nothing unless --yes is given.`,
  repay: `Repays <amount> of your TOKEN debt against the collateral TOKEN in a Vesu pool, or all of it: the
whole nominal debt, so no interest dust is left (the approve then covers the debt read plus
0.1 % for the interest until it runs, or what you hold when that is less but covers the debt,
and is set back to 0 in the same transaction). A partial
repay that would leave a debt at or under the pool's floor is refused. The collateral stays in
the position (close-position takes it back). Signs nothing unless --yes is given.`,
  'add-collateral': `Adds <amount> TOKEN as collateral to your (TOKEN, debt) position in a Vesu pool, borrowing
nothing: approves the pool for exactly the amount, then one modify_position. The plan shows the
health factor before → after (it rises). The position needs no debt yet: collateral may be added
first and borrowed against later (borrow … --collateral TOKEN). Signs nothing unless --yes is
given.`,
  'withdraw-collateral': `Withdraws <amount> TOKEN of collateral from your (TOKEN, debt) position in a Vesu pool, or all of
it (every collateral share, so no dust is left), in one modify_position; the debt is untouched.
With a debt, before signing: the health factor after (collateral value × max LTV / debt value,
at the pool's own prices) — at or below 1 refused, below 1.2 only with --accept-low-health. More
than the position holds is refused. Signs nothing unless --yes is given.`,
  'close-position': `Closes a Vesu position in one transaction: repays the whole nominal debt (no dust) and withdraws
every collateral share back to your account. Signs nothing unless --yes is given.`,
  batch: `Swaps (at most 3; one quote per swap), plain transfers, supplies to the main Vesu pool and stakes
(at most 5 of each) in one transaction, one review, one simulation, one signature: the swaps'
approve + swap pairs first, then the transfers, the stakes and the supplies, each kind in the
order given. A batch with a swap is mainnet-only; one with a supply needs a network with a Vesu
pool (mainnet); transfers and stakes run on mainnet and sepolia. Each item is one quoted flag
value, repeated for more: --swap "1 ETH>USDC", --send "5 USDC>0x…", --supply "100 USDC",
--stake "100 STRK>Sandbox Alpha". Without --yes it shows the plan and signs nothing.`,
};
