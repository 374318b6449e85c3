import { describe, expect, it } from 'vitest';
import { toHexFelt, TRANSFER_EVENT_KEY, u256Felts } from '../../../shared/erc20.js';
import { resolveToken } from '../../../shared/tokens.js';
import { AppError } from '../../../shared/errors.js';
import { type PreparedExecution, toExecutionReceipt } from './execute.js';
import { receiptOutcome } from './receipt.js';

const ACCOUNT = `0x${'a11ce'.padStart(64, '0')}`;
const OTHER = `0x${'b0b'.padStart(64, '0')}`;
const FEE_RECIPIENT = `0x${'fee'.padStart(64, '0')}`;
const HASH = `0x${'1234'.padStart(64, '0')}`;
const USDC = resolveToken('mainnet', 'USDC').address;
const STRK = resolveToken('mainnet', 'STRK').address;

const transfer = (token: string, from: string, to: string, amount: bigint) => ({
  from_address: token,
  keys: [toHexFelt(TRANSFER_EVENT_KEY), from, to],
  data: u256Felts(amount),
});
const scope = {
  account: ACCOUNT,
  network: 'mainnet' as const,
  fee: { recipient: FEE_RECIPIENT, gasToken: STRK },
};

describe('receiptOutcome: only a coherent receipt of this hash is an outcome', () => {
  it('SUCCEEDED and REVERTED of the hash asked about (any spelling of it) are outcomes', () => {
    expect(
      receiptOutcome({ transaction_hash: '0x1234', execution_status: 'SUCCEEDED' }, HASH, scope),
    ).toEqual({ outcome: 'succeeded' });
    expect(
      receiptOutcome(
        { transaction_hash: HASH, execution_status: 'REVERTED', events: [] },
        HASH,
        scope,
      ),
    ).toEqual({ outcome: 'reverted' });
  });

  it.each([
    [{ execution_status: 'SUCCEEDED' }, 'hash', /names no transaction hash/],
    [{ transaction_hash: '0x0bad', execution_status: 'SUCCEEDED' }, 'hash', /another transaction/],
    [{ transaction_hash: '0x0', execution_status: 'SUCCEEDED' }, 'hash', /another transaction/],
    [{ transaction_hash: 'zz', execution_status: 'SUCCEEDED' }, 'hash', /names no transaction/],
    [{ transaction_hash: HASH }, 'status', /no execution status/],
    [
      { transaction_hash: HASH, execution_status: 'ACCEPTED' },
      'status',
      /neither SUCCEEDED nor REVERTED/,
    ],
    [{ transaction_hash: HASH, execution_status: 'succeeded' }, 'status', /neither/],
  ])('%j is unknown (%s)', (raw, reason, problem) => {
    const verdict = receiptOutcome(raw, HASH, scope);
    expect(verdict).toMatchObject({ outcome: 'unknown', reason });
    expect(verdict.outcome === 'unknown' && verdict.problem).toMatch(problem);
  });

  it("a REVERTED receipt whose events move the account's tokens contradicts itself: unknown", () => {
    for (const event of [
      transfer(USDC, ACCOUNT, OTHER, 200_000n),
      transfer(USDC, OTHER, ACCOUNT, 1n),
    ]) {
      expect(
        receiptOutcome(
          { transaction_hash: HASH, execution_status: 'REVERTED', events: [event] },
          HASH,
          scope,
        ),
      ).toMatchObject({ outcome: 'unknown', reason: 'contradiction' });
    }
  });

  it('a REVERTED receipt with only the fee, transfers of others or unknown emitters is a revert', () => {
    const events = [
      transfer(STRK, ACCOUNT, FEE_RECIPIENT, 10n ** 15n),
      transfer(USDC, OTHER, FEE_RECIPIENT, 5n),
      transfer(`0x${'dead'.padStart(64, '0')}`, ACCOUNT, OTHER, 5n),
      { keys: 'junk', data: [] },
    ];
    expect(
      receiptOutcome({ transaction_hash: HASH, execution_status: 'REVERTED', events }, HASH, scope),
    ).toEqual({ outcome: 'reverted' });
    // without a known fee party, the gas token leaving the account counts as moving
    expect(
      receiptOutcome({ transaction_hash: HASH, execution_status: 'REVERTED', events }, HASH, {
        account: ACCOUNT,
        network: 'mainnet',
      }),
    ).toMatchObject({ outcome: 'unknown', reason: 'contradiction' });
  });
});

describe('toExecutionReceipt: the submitted hash, or no receipt at all', () => {
  const prepared = {
    account: ACCOUNT,
    kind: 'invoke',
    fee: { mode: 'sponsored' },
  } as unknown as PreparedExecution;

  it('records the submitted hash (padded), never the receipt field', () => {
    const receipt = toExecutionReceipt(
      { transaction_hash: '0x1234', execution_status: 'SUCCEEDED' },
      prepared,
      'mainnet',
      '0x1234',
    );
    expect(receipt).toMatchObject({ transactionHash: HASH, status: 'SUCCEEDED' });
  });

  it.each([
    [{ transaction_hash: '0x0bad', execution_status: 'SUCCEEDED' }, 'another transaction'],
    [{ execution_status: 'REVERTED' }, 'names no transaction hash'],
    [{ transaction_hash: HASH }, 'no execution status'],
    [
      {
        transaction_hash: HASH,
        execution_status: 'REVERTED',
        events: [transfer(USDC, ACCOUNT, OTHER, 1n)],
      },
      "account's tokens moving",
    ],
  ])('%j is TRANSACTION_PENDING naming the submitted hash', (raw, problem) => {
    let error: unknown;
    try {
      toExecutionReceipt(raw, prepared, 'mainnet', HASH);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'TRANSACTION_PENDING',
      details: { transactionHash: HASH, receiptProblem: expect.stringContaining(problem) },
    });
  });
});
