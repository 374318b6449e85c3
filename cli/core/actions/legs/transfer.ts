/**
 * The `transfer` leg type: an ERC-20 `transfer(recipient, amount)` of a registry token to a
 * recipient that keeps the funds (rules.ts checkRecipient). No reads before planning. Its
 * effects: the amount leaves exactly, to the recipient (a third party, so the simulation must
 * show the recipient paid in full).
 */
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { addressToBigInt, sameAddress, type Token } from '../../../../shared/tokens.js';
import { buildTransferCall } from '../../chain/calls.js';
import { decodeAddressAmount } from '../calls.js';
import type { LegType } from './types.js';
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

export const transferLegType: LegType<TransferLeg> = {
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
