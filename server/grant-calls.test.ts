/** What a grant lets the server sign: the calls it decodes, their outflows, the refusals; the fee recipient it learns. */
import { describe, expect, it } from 'vitest';
import { SELECTOR, selectorOf } from '../shared/erc20.js';
import { knownContracts } from '../shared/known-contracts.js';
import { POOL_SELECTOR, SANDBOX_VALIDATORS } from '../shared/staking.js';
import { encodeSwapCalldata, ROUTER_ADDRESS } from '../shared/swap-calldata.js';
import {
  byteArrayFelts,
  SANDBOX_VTOKEN_CLASS_HASH,
  sandboxVTokenAddress,
  sandboxVTokenWords,
  vesuFor,
  VESU_POOL_SELECTOR,
  type VTokenProof,
  vTokenProofHolds,
  VTOKEN_SELECTOR,
} from '../shared/vesu.js';
import { outsideExecution } from '../test/helpers/typed-data.js';
import { mainnetVTokenProof } from '../test/helpers/vtoken-proof.js';
import {
  type DecodedCall,
  grantOutflows,
  namedBy,
  outsideExecutionCalls,
  withProvenVTokens,
} from './grant-calls.js';
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
const hex = (v: bigint): string => `0x${v.toString(16)}`;
const PRIME = vesuFor('mainnet')?.pools[0]?.address as string;

/**
 * USDC's proof: fixed inputs, so the same proof every time; its ~20 Pedersen hashes are computed
 * once for the file, and each test gets its own copy.
 */
let usdcProof: VTokenProof | undefined;
const mainnetProof = (): VTokenProof => structuredClone((usdcProof ??= mainnetVTokenProof('USDC')));

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

  it("a vToken the request proves: deposit, withdraw and redeem for the wallet; the asset's approval is the outflow", () => {
    const proof = mainnetProof();
    const vToken = BigInt(proof.vToken);
    const proven = { ...scope(), known: withProvenVTokens(scope().known, [proof]) };
    const outflows = grantOutflows(
      [
        call(USDC, SELECTOR.approve, [vToken, 9, 0]),
        call(vToken, VTOKEN_SELECTOR.deposit, [9, 0, WALLET]),
        call(vToken, VTOKEN_SELECTOR.withdraw, [1, 0, WALLET, WALLET]),
        call(vToken, VTOKEN_SELECTOR.redeem, [1, 0, WALLET, WALLET]),
      ],
      proven,
    );
    expect([...outflows]).toEqual([[hex64(USDC), 9n]]);
    expect(proven.known.get(hex64(vToken))?.name).toBe('the USDC vToken of the Vesu Prime pool');
    for (const bad of [
      call(vToken, VTOKEN_SELECTOR.deposit, [9, 0, BOB]),
      call(vToken, VTOKEN_SELECTOR.withdraw, [1, 0, BOB, WALLET]),
      call(vToken, VTOKEN_SELECTOR.redeem, [1, 0, WALLET, BOB]),
      call(vToken, SELECTOR.transfer, [BOB, 1, 0]),
    ])
      expect(() => grantOutflows([bad], proven)).toThrow(
        expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }),
      );
    // without its proof a vToken is no known contract, on any network and in the sandbox
    for (const sandbox of [false, true])
      expect(() =>
        grantOutflows([call(USDC, SELECTOR.approve, [vToken, 9, 0])], {
          ...scope(),
          known: knownContracts({ sandbox }),
        }),
      ).toThrow(expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }));
  });

  it("the sandbox's vTokens prove the same way (its factory's address, class and words)", () => {
    const deployment = vesuFor('mainnet');
    const words = sandboxVTokenWords('USDC');
    const debtAsset = deployment?.assets.find((a) => BigInt(a) !== USDC) as string;
    const proof = {
      vToken: sandboxVTokenAddress('mainnet', { symbol: 'USDC', address: hex64(USDC) }),
      pool: PRIME,
      asset: hex64(USDC),
      debtAsset,
      classHash: hex(SANDBOX_VTOKEN_CLASS_HASH),
      name: byteArrayFelts(words.name).map(hex),
      symbol: byteArrayFelts(words.symbol).map(hex),
    };
    expect(vTokenProofHolds(proof)).toMatchObject({
      network: 'mainnet',
      token: { symbol: 'USDC' },
    });
  });

  it('a proof for a contract the calls do not name is refused before any hashing', () => {
    const proof = mainnetProof();
    const calls = [call(USDC, SELECTOR.transfer, [BOB, 1, 0])];
    expect(() => withProvenVTokens(scope().known, [proof], namedBy(calls))).toThrow(
      expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }),
    );
    const named = namedBy([call(USDC, SELECTOR.approve, [BigInt(proof.vToken), 1, 0])]);
    expect(
      withProvenVTokens(scope().known, [proof], named).get(hex64(BigInt(proof.vToken))),
    ).toMatchObject({
      kind: 'vesu-vtoken',
    });
  });

  it('new proofs are bounded per request (MAX_PROOF_HASHES); those shown to hold cost nothing again', () => {
    // a class hash of this test's own: proofs no other test has shown
    const proofs = ['USDC', 'USDT', 'ETH', 'STRK'].map((symbol) =>
      mainnetVTokenProof(symbol, 0x5eed0n),
    );
    expect(() => withProvenVTokens(scope().known, proofs)).toThrow(
      expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }),
    );
    // the first three were shown before the fourth went over: now only the fourth costs work
    const known = withProvenVTokens(scope().known, proofs);
    for (const proof of proofs)
      expect(known.get(hex64(BigInt(proof.vToken)))?.kind).toBe('vesu-vtoken');
  });

  it.each([
    ['another class hash', { classHash: '0x1234' }],
    ['other words', { symbol: byteArrayFelts('vUSDT').map(hex) }],
    ['a pool that is not a known one', { pool: hex64(0x9001) }],
    ['an asset outside the registry', { asset: hex64(0x7777) }],
    ['another registry asset', { asset: hex64(ETH) }],
    ['a debt asset that is not a candidate', { debtAsset: hex64(0x8888) }],
    ['the asset as its own debt asset', { debtAsset: hex64(USDC) }],
    ['words that are no ByteArray', { name: ['0x9', '0x1', '0x2'] }],
    ['a felt above the field', { classHash: `0x${'f'.repeat(64)}` }],
  ])('a proof with %s does not hold, and the request is refused', (_what, change) => {
    const proof = { ...mainnetProof(), ...change };
    expect(vTokenProofHolds(proof)).toBeUndefined();
    expect(() => withProvenVTokens(scope().known, [proof])).toThrow(
      expect.objectContaining({ code: 'GRANT_CALL_NOT_ALLOWED' }),
    );
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

  it('a fee call whose selector is not a felt is no fee call (never a throw)', () => {
    const learned = new Set<string>();
    const broken = answer(USDC, '0x5', 2);
    const calls = broken.result.typed_data.message.Calls as Array<{ Selector: string }>;
    (calls[1] as { Selector: string }).Selector = '0xzz';
    expect(() => learnFeeRecipient(params('default'), broken, learned)).not.toThrow();
    expect(learned.size).toBe(0);
  });
});

describe('outsideExecutionCalls', () => {
  const data = (selector: unknown) => {
    const base = outsideExecution(1, 3);
    return {
      ...base,
      message: {
        ...base.message,
        Calls: [{ To: hex64(USDC), Selector: selector, Calldata: [hex64(BOB), '0x1', '0x0'] }],
      },
    };
  };

  it('reads a selector as the hash reads it: 0x-hex or a name; digits or a number are refused', () => {
    expect(outsideExecutionCalls(data(hex64(SELECTOR.transfer)))[0]?.selector).toBe(
      SELECTOR.transfer,
    );
    expect(outsideExecutionCalls(data('transfer'))[0]?.selector).toBe(SELECTOR.transfer);
    // starknet.js would hash these as names: not the transfer a number reading would charge
    for (const odd of [SELECTOR.transfer.toString(10), Number(1), '1transfer'])
      expect(() => outsideExecutionCalls(data(odd))).toThrow(/neither 0x-hex nor/);
  });
});
