/**
 * The `transfer` leg type: an ERC-20 `transfer(recipient, amount)` of a registry token to a
 * recipient that keeps the funds (rules.ts checkRecipient). No reads before planning. Its
 * effects: the amount leaves exactly, to the recipient (a third party, so the simulation must
 * show the recipient paid in full).
 */
import { checkBaseUnits } from '../../../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../../../shared/errors.js';
import { addressToBigInt, findToken, sameAddress, type Token } from '../../../../shared/tokens.js';
import { buildTransferCall } from '../../chain/calls.js';
import { decodeAddressAmount } from '../calls.js';
import { checkRecipient } from '../rules.js';
import type { LegSource, LegType, LegWhere } from './types.js';
import { describeCall, exact, legAmount, said, shortAddress } from './words.js';

export interface PlannedTransfer {
  token: Token;
  amount: bigint;
  /** normalised address */
  to: string;
}

export interface TransferLeg {
  type: 'transfer';
  transfer: PlannedTransfer;
}

/**
 * A transfer's rules, before any request and again when the plan is built: a positive amount of a
 * registry token, to a recipient that keeps the funds (rules.ts checkRecipient, normalised).
 */
function checkTransfer(leg: TransferLeg, where: LegWhere): TransferLeg {
  const send = leg.transfer;
  checkBaseUnits(send.amount, send.token.symbol);
  if (findToken(where.network, send.token.address) === undefined)
    throw usageError(`${send.token.symbol} is not a ${where.network} registry token`);
  return { ...leg, transfer: { ...send, to: checkRecipient(send.to, where) } };
}

/** A transfer is named as it is signed: it spends its amount and reads nothing. */
export const transferSource: LegSource<TransferLeg, TransferLeg> = {
  spends: ({ transfer }) => [transfer.token],
  names: ({ transfer }) => [transfer.token],
  check: checkTransfer,
  read: (specs) => Promise.resolve([...specs]),
};

export const transferLegType: LegType<TransferLeg> = {
  check: checkTransfer,
  calls: ({ transfer }) => [buildTransferCall(transfer.token, transfer.to, transfer.amount)],
  verify: ({ transfer: send }, calls, at, n) => {
    const call = calls[at];
    const fail = (field: string, why: string): never => {
      throw new AppError(
        ErrorCode.CALLS_MISMATCH,
        `transfer ${n + 1} (${exact(send.amount, send.token)} to ${send.to}): ${why}; refusing to sign`,
        { details: { field, send: n + 1, call: at + 1 } },
      );
    };
    if (call === undefined || call.entrypoint !== 'transfer')
      return fail('entrypoint', `call ${at + 1} must be this transfer`);
    if (!sameAddress(call.contractAddress, send.token.address))
      return fail(
        'token',
        `the transfer is on ${call.contractAddress}, not on ${send.token.symbol}`,
      );
    const args = decodeAddressAmount(call.calldata);
    if (args === undefined) return fail('calldata', 'the transfer is not (recipient, u256 amount)');
    if (args.address !== addressToBigInt(send.to))
      return fail('recipient', `the transfer pays 0x${args.address.toString(16)}`);
    if (args.amount !== send.amount)
      return fail('amount', `the transfer is for ${exact(args.amount, send.token)}`);
    return 1;
  },
  effects: ({ transfer }) => ({
    out: [{ token: transfer.token, amount: transfer.amount, to: transfer.to }],
    in: [],
    positions: [],
  }),
  identity: () => [],
  describe: ({ transfer }) => ({
    type: 'transfer',
    amount: legAmount(transfer.amount, transfer.token),
    to: transfer.to,
  }),
  headline: (legs) =>
    legs.map(({ transfer: s }) => `send ${said(s.amount, s.token)} to ${shortAddress(s.to)}`),
  // the amount and recipient are the person's own; nothing read from the chain
  moved: () => [],
  describeCalls: (_leg, calls, plan) => calls.map((c) => describeCall(c, plan)),
};
