/** What a grant lets the server sign: the calls it decodes, their outflows, the refusals; the fee recipient it learns. */
import { describe, expect, it } from 'vitest';
import { SELECTOR, selectorOf } from '../shared/erc20.js';
import { knownContracts } from '../shared/known-contracts.js';
import { POOL_SELECTOR, SANDBOX_VALIDATORS } from '../shared/staking.js';
import { encodeSwapCalldata, ROUTER_ADDRESS } from '../shared/swap-calldata.js';
import {
  sandboxVTokenAddress,
  vesuFor,
  VESU_POOL_SELECTOR,
  VTOKEN_SELECTOR,
} from '../shared/vesu.js';
import { type DecodedCall, grantOutflows } from './grant-calls.js';
import { learnFeeRecipient } from './routes/paymaster.js';

const USDC = BigInt('0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb');
const ETH = BigInt('0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7');
const WALLET = 0xa11ce;
const BOB = 0xb0b;
const FORWARDER = 0xf0f0;
const hex64 = (v: bigint | number): string => `0x${BigInt(v).toString(16).padStart(64, '0')}`;
const scope = (fee: number[] = []) => ({
  walletAddress: hex64(WALLET),
  recipients: [hex64(BOB)],
  known: knownContracts({ sandbox: true }),
  feeRecipients: new Set(fee.map(hex64)),
});
const call = (to: bigint, selector: bigint, calldata: Array<bigint | number>): DecodedCall => ({
  to,
  selector,
  calldata: calldata.map(BigInt),
});

describe('grantOutflows', () => {
  it('sums transfers and approvals per token (u256 high half included)', () => {
    const outflows = grantOutflows(
      [
        call(USDC, SELECTOR.transfer, [BOB, 5, 0]),
        call(USDC, SELECTOR.approve, [BigInt(ROUTER_ADDRESS), 7, 0]),
        call(ETH, SELECTOR.transfer, [BOB, 0, 1]),
      ],
      scope(),
    );
    expect(outflows.get(hex64(USDC))).toBe(12n);
    expect(outflows.get(hex64(ETH))).toBe(1n << 128n);
  });

  it('a swap, a stake and a Vesu position for the wallet itself move nothing by themselves', () => {
    const swap = encodeSwapCalldata([], {
      tokenIn: ETH,
      tokenOut: USDC,
      amountIn: 1n,
      minReceived: 1n,
      destination: BigInt(WALLET),
    }).map(BigInt);
    const pool = BigInt((SANDBOX_VALIDATORS[0] as { pool: string }).pool);
    const vesu = BigInt(vesuFor('mainnet')?.pools[0]?.address as string);
    const outflows = grantOutflows(
      [
        call(BigInt(ROUTER_ADDRESS), selectorOf('swap'), swap),
        call(pool, POOL_SELECTOR.enter_delegation_pool, [WALLET, 5]),
        call(pool, POOL_SELECTOR.claim_rewards, [WALLET]),
        call(vesu, VESU_POOL_SELECTOR.modify_position, [USDC, ETH, WALLET, 0, 0, 0, 0, 0, 0, 0, 0]),
      ],
      scope(),
    );
    expect(outflows.size).toBe(0);
  });

  it.each([
    [
      'a transfer to an unlisted address',
      [call(USDC, SELECTOR.transfer, [0xbad, 1, 0])],
      'GRANT_RECIPIENT_NOT_ALLOWED',
    ],
    [
      'an approval of an unknown spender',
      [call(USDC, SELECTOR.approve, [0xbad, 1, 0])],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'an approval of a token as spender',
      [call(USDC, SELECTOR.approve, [ETH, 1, 0])],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'transfer_from',
      [call(USDC, SELECTOR.transfer_from, [WALLET, BOB, 1, 0])],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'an unknown contract',
      [call(0xbad0n, SELECTOR.transfer, [BOB, 1, 0])],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'a swap paying someone else',
      [
        call(
          BigInt(ROUTER_ADDRESS),
          selectorOf('swap'),
          encodeSwapCalldata([], {
            tokenIn: ETH,
            tokenOut: USDC,
            amountIn: 1n,
            minReceived: 1n,
            destination: 0xbadn,
          }).map(BigInt),
        ),
      ],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'a stake rewarding someone else',
      [
        call(
          BigInt((SANDBOX_VALIDATORS[0] as { pool: string }).pool),
          POOL_SELECTOR.enter_delegation_pool,
          [0xbad, 5],
        ),
      ],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'changing a reward address',
      [
        call(
          BigInt((SANDBOX_VALIDATORS[0] as { pool: string }).pool),
          POOL_SELECTOR.change_reward_address,
          [0xbad],
        ),
      ],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'a Vesu position of someone else',
      [
        call(
          BigInt(vesuFor('mainnet')?.pools[0]?.address as string),
          VESU_POOL_SELECTOR.modify_position,
          [USDC, ETH, 0xbad, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
      ],
      'GRANT_CALL_NOT_ALLOWED',
    ],
    [
      'a transfer whose amount is not a u256',
      [call(USDC, SELECTOR.transfer, [BOB, 1n << 128n, 0])],
      'GRANT_CALL_NOT_ALLOWED',
    ],
  ])('refuses %s', (_what, calls, code) => {
    expect(() => grantOutflows(calls, scope())).toThrow(expect.objectContaining({ code }));
  });

  it("pays the paymaster's fee recipient only as the last call, and counts it", () => {
    const fee = call(USDC, SELECTOR.transfer, [FORWARDER, 3, 0]);
    expect(
      grantOutflows([call(USDC, SELECTOR.transfer, [BOB, 1, 0]), fee], scope([FORWARDER])).get(
        hex64(USDC),
      ),
    ).toBe(4n);
    expect(() =>
      grantOutflows([fee, call(USDC, SELECTOR.transfer, [BOB, 1, 0])], scope([FORWARDER])),
    ).toThrow(expect.objectContaining({ code: 'GRANT_RECIPIENT_NOT_ALLOWED' }));
  });

  it("a pinned vToken (the sandbox's): deposit, withdraw and redeem for the wallet; the asset's approval is the outflow", () => {
    const vToken = BigInt(
      sandboxVTokenAddress('mainnet', { symbol: 'USDC', address: hex64(USDC) }),
    );
    const outflows = grantOutflows(
      [
        call(USDC, SELECTOR.approve, [vToken, 9, 0]),
        call(vToken, VTOKEN_SELECTOR.deposit, [9, 0, WALLET]),
        call(vToken, VTOKEN_SELECTOR.withdraw, [1, 0, WALLET, WALLET]),
        call(vToken, VTOKEN_SELECTOR.redeem, [1, 0, WALLET, WALLET]),
      ],
      scope(),
    );
    expect([...outflows]).toEqual([[hex64(USDC), 9n]]);
    for (const bad of [
      call(vToken, VTOKEN_SELECTOR.deposit, [9, 0, BOB]),
      call(vToken, VTOKEN_SELECTOR.withdraw, [1, 0, BOB, WALLET]),
      call(vToken, VTOKEN_SELECTOR.redeem, [1, 0, WALLET, BOB]),
      call(vToken, SELECTOR.transfer, [BOB, 1, 0]),
    ])
      expect(() => grantOutflows([bad], scope())).toThrow(
        expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }),
      );
    // no vToken is pinned on the real networks: there a vToken is no known contract
    expect(knownContracts({ sandbox: false }).get(hex64(vToken))).toBeUndefined();
  });
});

describe('learnFeeRecipient', () => {
  const params = (mode: string, calls = 1) => ({
    transaction: {
      type: 'invoke',
      invoke: { user_address: hex64(WALLET), calls: Array.from({ length: calls }, () => ({})) },
    },
    parameters: { version: '0x1', fee_mode: { mode, gas_token: hex64(USDC) } },
  });
  const answer = (to: bigint, amount: string, calls: number) => ({
    jsonrpc: '2.0',
    id: 1,
    result: {
      fee: { suggested_max_fee_in_gas_token: amount },
      typed_data: {
        message: {
          Calls: [
            ...Array.from({ length: calls - 1 }, () => ({
              To: hex64(BOB),
              Selector: '0x1',
              Calldata: [],
            })),
            {
              To: hex64(to),
              Selector: hex64(SELECTOR.transfer),
              Calldata: [hex64(FORWARDER), amount, '0x0'],
            },
          ],
        },
      },
    },
  });

  it("learns the forwarder from the paymaster's appended fee transfer only", () => {
    const learned = new Set<string>();
    learnFeeRecipient(params('sponsored'), answer(USDC, '0x5', 2), learned);
    learnFeeRecipient(params('default', 2), answer(USDC, '0x5', 2), learned); // no call appended
    learnFeeRecipient(params('default'), answer(ETH, '0x5', 2), learned); // not the gas token
    learnFeeRecipient(params('default'), answer(USDC, '0x0', 2), learned); // nothing to pay
    expect(learned.size).toBe(0);
    learnFeeRecipient(params('default'), answer(USDC, '0x5', 2), learned);
    expect([...learned]).toEqual([hex64(FORWARDER)]);
  });
});
