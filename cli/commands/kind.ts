/**
 * The command of every action kind (`send`, `trade`, `multi-swap`, `batch`,
 * `portfolio-rebalance`, `stake`, `unstake [--complete]`, …; docs/commands.md): one path,
 * headless/kind-command.ts, from the kinds table (cli/core/actions/kinds.ts).
 */
export { commandFor } from '../headless/kind-command.js';
