/**
 * Staking on the sandbox, through real processes: the sandbox stack (in this process, found by the
 * built bin through the data folder's sandbox.json as any `--sandbox` command finds it), a stake
 * made with a real signed multicall (approve + enter_delegation_pool through the paymaster), then
 * `finance-tui sandbox advance` in its own process moves the chain's clock and rewards appear;
 * claiming pays exactly the unclaimed amount.
 */
import { RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildApproveCall,
  createChainReader,
  type ExecutionAccount,
  executeCalls,
  readBalances,
} from '../cli/core/chain/index.js';
import { findValidator, validatorsFor } from '../shared/staking.js';
import { resolveToken } from '../shared/tokens.js';
import { EPOCH_SECONDS, memberRewards } from '../sandbox/chain/staking.js';
import { cleanEnv, runBin, tempHome } from './helpers/process.js';
import {
  homeNamingSandbox,
  type SandboxStack,
  startSandboxStack,
} from './helpers/sandbox-session.js';

const STRK = resolveToken('mainnet', 'STRK');
const ALPHA = findValidator(validatorsFor('mainnet', { sandbox: true }), 'Sandbox Alpha')!;
const ALPHA_COMMISSION = 500n;
const AMOUNT = 5_000n * 10n ** 18n;

let stack: SandboxStack;
let ea: ExecutionAccount;
let provider: RpcProvider;
let home: { dir: string; cleanup: () => void };
let empty: { dir: string; cleanup: () => void };

const bin = (dir: string, args: string[]) => runBin(args, cleanEnv({ FINANCE_TUI_HOME: dir }));

async function member(): Promise<bigint[]> {
  return (
    await provider.callContract({
      contractAddress: ALPHA.pool,
      entrypoint: 'get_pool_member_info_v1',
      calldata: [ea.address],
    })
  ).map(BigInt);
}

async function strk(): Promise<bigint> {
  const reader = createChainReader({ address: ea.address, rpcUrl: stack.handle.info.rpcUrl });
  const [entry] = await readBalances(reader, { tokens: [STRK] });
  return entry?.balance ?? -1n;
}

beforeAll(async () => {
  stack = await startSandboxStack();
  ea = stack.account(await stack.signIn('staker@example.com'));
  provider = new RpcProvider({ nodeUrl: stack.handle.info.rpcUrl });
  // the data folder names this running sandbox, as `finance-tui sandbox` would write it
  home = homeNamingSandbox(stack);
  empty = tempHome();
});

afterAll(async () => {
  await stack?.close();
  home?.cleanup();
  empty?.cleanup();
});

describe('sandbox staking through real processes', () => {
  it('stake with a signed multicall → sandbox advance → rewards → claim pays exactly them', async () => {
    const receipt = await executeCalls(
      ea,
      [
        buildApproveCall(STRK, ALPHA.pool, AMOUNT),
        {
          contractAddress: ALPHA.pool,
          entrypoint: 'enter_delegation_pool',
          calldata: [ea.address, `0x${AMOUNT.toString(16)}`],
        },
      ],
      { feeMode: 'sponsored' },
    );
    expect(receipt.status).toBe('SUCCEEDED');
    expect((await member()).slice(0, 4)).toEqual([0n, BigInt(ea.address), AMOUNT, 0n]);

    const advanced = await bin(home.dir, ['sandbox', 'advance', '3h', '--json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    const doc = JSON.parse(advanced.stdout) as { advancedBy: number; chainTime: string };
    expect(doc.advancedBy).toBe(3 * Number(EPOCH_SECONDS));
    const latest = await provider.getBlock('latest');
    expect(new Date(doc.chainTime).getTime()).toBe(latest.timestamp * 1000);

    const unclaimed = (await member())[3] as bigint;
    expect(unclaimed).toBeGreaterThan(0n);
    // 3 epochs passed, and the one staked in ended with the amount in the pool: 3 or 4
    expect([
      memberRewards(AMOUNT, 3n, ALPHA_COMMISSION),
      memberRewards(AMOUNT, 4n, ALPHA_COMMISSION),
    ]).toContain(unclaimed);

    const before = await strk();
    const claim = await executeCalls(
      ea,
      [{ contractAddress: ALPHA.pool, entrypoint: 'claim_rewards', calldata: [ea.address] }],
      { feeMode: 'sponsored' },
    );
    expect(claim.status).toBe('SUCCEEDED');
    expect(await strk()).toBe(before + unclaimed);
    expect((await member())[3]).toBe(0n);
  });

  it('prints the new chain time in words', async () => {
    const r = await bin(home.dir, ['sandbox', 'advance', '90m']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Sandbox clock moved 90m forward: chain time is now \d{4}-\d\d-\d\dT/,
    );
  });

  it('a bad duration is USAGE_ERROR before any sandbox is looked for', async () => {
    for (const bad of ['2w', '0h', '401d', '1.5h']) {
      const r = await bin(empty.dir, ['sandbox', 'advance', bad, '--json']);
      expect(r.code, bad).toBe(1);
      expect(JSON.parse(r.stdout).error.code, bad).toBe('USAGE_ERROR');
    }
    const none = await bin(empty.dir, ['sandbox', 'advance', '--json']);
    expect(JSON.parse(none.stdout).error.code).toBe('USAGE_ERROR');
  });

  it('needs a running sandbox: none is SERVER_UNREACHABLE naming how to start one', async () => {
    const r = await bin(empty.dir, ['sandbox', 'advance', '2h', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'SERVER_UNREACHABLE',
      message: expect.stringContaining('finance-tui sandbox'),
    });
  });
});
