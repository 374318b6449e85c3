/**
 * The commands of the action kinds that only parse their declaration's parameters (`send`,
 * `trade`, `stake`, `unstake [--complete]`, `claim-rewards`, `supply`, `withdraw`, `borrow`,
 * `repay`, `add-collateral`, `withdraw-collateral`, `close-position`; docs/commands.md): one
 * path, headless/kind-command.ts, from the kinds table (cli/core/actions/kinds.ts).
 */
export { commandFor } from '../headless/kind-command.js';
