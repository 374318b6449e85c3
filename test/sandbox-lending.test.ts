/**
 * Lending on the sandbox through real processes: the sandbox stack (in this process, found by the
 * built bin through the data folder's sandbox.json), supply and a borrow made with real signed
 * multicalls (vToken deposit; approve + modify_position), then `finance-tui sandbox advance` and
 * `finance-tui sandbox price` in their own processes: the supply grows, the health factor falls.
 */
import { RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApproveCall, type ExecutionAccount, executeCalls } from '../cli/core/chain/index.js';
import { resolveToken } from '../shared/tokens.js';
import { DENOMINATION, i257Felts, vesuFor } from '../shared/vesu.js';
import { cleanEnv, runBin } from './helpers/process.js';
import {
  homeNamingSandbox,
  type SandboxStack,
  startSandboxStack,
} from './helpers/sandbox-session.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const VESU = vesuFor('mainnet')!;
const POOL = VESU.pools[0]!.address;
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

let stack: SandboxStack;
let ea: ExecutionAccount;
let provider: RpcProvider;
let home: { dir: string; cleanup: () => void };

const bin = (args: string[]) => runBin(args, cleanEnv({ FINANCE_TUI_HOME: home.dir }));
const felt = (value: bigint): string => `0x${value.toString(16)}`;
const view = async (address: string, entrypoint: string, calldata: string[]) =>
  (await provider.callContract({ contractAddress: address, entrypoint, calldata })).map(BigInt);
const u256 = (felts: bigint[], at: number): bigint =>
  (felts[at] as bigint) + ((felts[at + 1] as bigint) << 128n);

beforeAll(async () => {
  stack = await startSandboxStack();
  ea = stack.account(await stack.signIn('lender@example.com'));
  provider = new RpcProvider({ nodeUrl: stack.handle.info.rpcUrl });
  home = homeNamingSandbox(stack);
});

afterAll(async () => {
  await stack?.close();
  home?.cleanup();
});

describe('sandbox lending through real processes', () => {
  it('supply → sandbox advance → worth more; borrow → sandbox price → lower health', async () => {
    // supply 1 000 USDC through the vToken; borrow 2 000 USDC against 1 ETH
    const [vUsdc] = await view(VESU.poolFactory, 'v_token_for_asset', [POOL, USDC.address]);
    const vToken = felt(vUsdc as bigint);
    const modify = {
      contractAddress: POOL,
      entrypoint: 'modify_position',
      calldata: [
        ETH.address,
        USDC.address,
        ea.address,
        ...[DENOMINATION.Assets, ...i257Felts(E18)].map(felt),
        ...[DENOMINATION.Assets, ...i257Felts(2_000n * E6)].map(felt),
      ],
    };
    const receipt = await executeCalls(
      ea,
      [
        buildApproveCall(USDC, vToken, 1_000n * E6),
        {
          contractAddress: vToken,
          entrypoint: 'deposit',
          calldata: [felt(1_000n * E6), '0x0', ea.address],
        },
        buildApproveCall(ETH, POOL, E18),
        modify,
      ],
      { feeMode: 'sponsored' },
    );
    expect(receipt.status).toBe('SUCCEEDED');
    const shares = u256(await view(vToken, 'balance_of', [ea.address]), 0);
    const worth = async () =>
      u256(await view(vToken, 'convert_to_assets', [felt(shares), '0x0']), 0);
    const before = await worth();

    const advanced = await bin(['sandbox', 'advance', '30d', '--json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    expect(await worth()).toBeGreaterThan(before);

    const health = async (): Promise<bigint> => {
      const c = await view(POOL, 'check_collateralization', [
        ETH.address,
        USDC.address,
        ea.address,
      ]);
      // Vesu v2's PairConfig { max_ltv, liquidation_factor, debt_cap }
      const [maxLtv] = await view(POOL, 'pair_config', [ETH.address, USDC.address]);
      return (u256(c, 1) * (maxLtv as bigint)) / u256(c, 3);
    };
    const high = await health();
    // 1 ETH at $3 000 × 0.8 / ~$2 000 of debt ≈ 1.2
    expect(high).toBeGreaterThan((119n * E18) / 100n);
    const priced = await bin(['sandbox', 'price', 'ETH', '2600.5', '--json']);
    expect(priced.code, priced.stderr).toBe(0);
    expect(JSON.parse(priced.stdout)).toMatchObject({ token: 'ETH', usd: '2600.5' });
    const low = await health();
    expect(low).toBeLessThan(high);
    // 2 600.5 × 0.8 / debt: by hand from the pool's own values
    const c = await view(POOL, 'check_collateralization', [ETH.address, USDC.address, ea.address]);
    expect(u256(c, 1)).toBe(
      (u256(await view(POOL, 'position', [ETH.address, USDC.address, ea.address]), 4) *
        26_005n *
        E18) /
        (10n * E18),
    );
  });

  it('refuses USDC, a bad price and an unknown token before anything moves', async () => {
    for (const [args, code] of [
      [['USDC', '1.1'], 'USAGE_ERROR'],
      [['ETH', '1e3'], 'INVALID_AMOUNT'],
      [['ETH', '0'], 'INVALID_AMOUNT'],
      [['NOPE', '1'], 'UNKNOWN_TOKEN'],
      [['ETH'], 'USAGE_ERROR'],
    ] as const) {
      const r = await bin(['sandbox', 'price', ...args, '--json']);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(JSON.parse(r.stdout).error.code, args.join(' ')).toBe(code);
    }
  });
});
