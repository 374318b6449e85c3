/**
 * `finance-tui send <amount> <token> <to> [--yes] [--gas-token T] [--max-fee AMOUNT]`: a token
 * transfer from the signed-in wallet (cli/core/funds.ts). Without --yes it shows the plan —
 * checked, built and simulated — signs nothing, and exits 1 with CONFIRMATION_REQUIRED (the plan
 * in the error document under --json). With --yes it signs exactly that plan and sends it.
 */
import { parseCommandArgs, refuseNegativeAmount } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui send <amount> <token> <to> [options]

Sends <amount> (token units, e.g. 1.5) of <token> (symbol or address) to the address <to>.
Shows the plan — fee, balance changes from a simulation of exactly what would be signed — and
signs nothing unless --yes is given.

  --yes             sign and send the plan
  --gas-token T     pay gas in T (default: sponsored when the server offers it, else the
                    gasToken setting, STRK)
  --max-fee AMOUNT  refuse a plan whose maximum gas fee is above AMOUNT (gas-token units)
  --sandbox         use the local sandbox
  --json            one JSON document: the plan and the receipt, balances before and after
`;

const VALUE_FLAGS = new Set(['--gas-token', '--max-fee']);

export const run: CommandRun = async (ctx) => {
  refuseNegativeAmount(ctx.argv, VALUE_FLAGS);
  const { values, positionals } = parseCommandArgs(ctx.argv, { yes: { type: 'boolean' }, 'gas-token': { type: 'string' }, 'max-fee': { type: 'string' } });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 3) throw usageError(`expected <amount> <token> <to> (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}); see finance-tui send --help`);
  const [amount = '', token = '', to = ''] = positionals;
  const [{ planSend, executeSend }, { renderPlan, renderSent }] = await Promise.all([import('../core/funds.js'), import('../headless/funds-render.js')]);
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, async (endpoints, call) => {
    const planned = await planSend(endpoints, { amount, token, to, gasToken: values['gas-token'], maxFee: values['max-fee'] }, call);
    if (values.yes !== true) {
      // the plan is the answer a script needs to decide; a person reads it above the error line
      if (!ctx.json) ctx.stdout.write(renderPlan(planned.plan));
      throw new AppError(ErrorCode.CONFIRMATION_REQUIRED, 'nothing was signed: add --yes to sign and send this plan', {
        status: 400,
        details: { plan: planned.plan },
      });
    }
    return executeSend(endpoints, planned, call);
  });
  return { data, human: () => renderSent(data) };
};
