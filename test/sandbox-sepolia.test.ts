/**
 * A sandbox shaped like Sepolia (issue 31 §2; docs/sandbox-chain.md "Networks"), through whole
 * processes: `finance-tui sandbox --network sepolia` names its shape in its ready line and
 * sandbox.json; `--sandbox` commands take Sepolia's registry (USDC and USDC.e apart, Vesu's WBTC)
 * and deployments from it: supply, borrow, repay all and close on the WBTC Prime Sepolia pool,
 * stake and claim on Sepolia's staking contract; every swap command is refused as mainnet-only
 * before anything is signed (signed in or not); `portfolio` works; a command that asks for
 * mainnet is told the running sandbox is Sepolia's. The sandbox is its own process; the commands,
 * whose documents and refusals are the subject, run the built program in this worker
 * (cliInProcess; docs/decisions.md "Bin runs in-process where the result is the subject").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { tempHome } from './helpers/process.js';
import { copyFileSync } from 'node:fs';
import { SELECTOR } from '../shared/erc20.js';

interface Money {
  token: string;
  amount: string;
  baseUnits: string;
}
interface Balance {
  symbol: string;
  address: string;
  baseUnits: string;
}

// vesuxyz/vesu-v2 deployment-sepolia.json @ f4d1eed62924f44b6ccc492b2059aa9be909c503
const SEPOLIA_POOL = '0x06227c13372b8c7b7f38ad1cfe05b5cf515b4e5c596dd05fe8437ab9747b2093';
const SEPOLIA_WBTC = '0x04861ba938aed21f2cd7740acd3765ac4d2974783a3218367233de0153490cb6';
const SEPOLIA_USDC = '0x0512feac6339ff7889822cb5aa2a86c848e9d392bb0e3e237c008674feed8343';
const SEPOLIA_USDC_E = '0x053b40a647cedfca6ca84f542a0fe36736031905a9639a7f19a3c1e66bfd5080';
const USDC = 10n ** 6n;
const WBTC = 10n ** 8n;
const STRK = 10n ** 18n;

describe('a sandbox shaped like Sepolia (whole processes)', () => {
  let users: TwoUsers;
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  const balances = async (): Promise<Balance[]> => {
    const r = await alice(['balance']);
    expect(r.code, r.stderr).toBe(0);
    return r.doc.balances as Balance[];
  };
  const historyLength = async (): Promise<number> => {
    const r = await alice(['history']);
    expect(r.code, r.stderr).toBe(0);
    return (r.doc.entries as unknown[] | undefined)?.length ?? 0;
  };

  beforeAll(async () => {
    users = await startTwoUsers({ network: 'sepolia' });
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it("names its shape, and its wallets hold Sepolia's registry: USDC and USDC.e apart", async () => {
    const state = JSON.parse(readFileSync(join(users.aliceHome, 'sandbox.json'), 'utf8')) as {
      network?: string;
    };
    expect(state.network).toBe('sepolia');
    // a wallet of its own: the other tests spend alice's (they run in any order)
    const home = tempHome();
    let held: Balance[];
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
      await signIn(home.dir, 'sepolia-faucet@example.com');
      const r = await cliInProcess(home.dir, ['balance', '--sandbox', '--json']);
      expect(r.code, r.stderr).toBe(0);
      held = r.doc.balances as Balance[];
    } finally {
      home.cleanup();
    }
    const bySymbol = new Map(held.map((b) => [b.symbol, b]));
    expect(bySymbol.get('WBTC')?.address).toBe(SEPOLIA_WBTC);
    expect(bySymbol.get('USDC')?.address).toBe(SEPOLIA_USDC);
    expect(bySymbol.get('USDC.e')?.address).toBe(SEPOLIA_USDC_E);
    expect(bySymbol.has('DAI')).toBe(false);
    // the faucet, on Sepolia's tokens
    expect(BigInt(bySymbol.get('WBTC')?.baseUnits ?? '0')).toBe(WBTC / 2n);
    expect(BigInt(bySymbol.get('USDC')?.baseUnits ?? '0')).toBe(10_000n * USDC);
    expect(bySymbol.get('USDC.e')?.baseUnits).toBe('0');
  }, 60_000);

  it('lending: supply, borrow, repay all, close on WBTC Prime Sepolia; `lending --json` names it', async () => {
    const supply = await alice(['supply', '1000', 'USDC', '--yes']);
    expect(supply.doc.error, supply.stderr).toBeUndefined();
    expect(supply.doc).toMatchObject({
      kind: 'supply',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'deposit' }],
      transaction: { status: 'SUCCEEDED' },
    });

    const borrowed = await alice(['borrow', '500', 'USDC', '--collateral', '0.1', 'WBTC', '--yes']);
    expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
    expect(borrowed.doc).toMatchObject({ transaction: { status: 'SUCCEEDED' } });

    const read = await alice(['lending']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.doc.network).toBe('sandbox');
    expect(read.doc.pools).toEqual([{ name: 'WBTC Prime Sepolia', address: SEPOLIA_POOL }]);
    const supplied = read.doc.supplied as Array<Money & { pool: string }>;
    expect(supplied).toEqual([
      expect.objectContaining({ pool: 'WBTC Prime Sepolia', token: 'USDC' }),
    ]);
    const borrows = read.doc.borrows as Array<{
      pool: string;
      collateral: Money;
      debt: Money;
      healthFactor: string | null;
    }>;
    expect(borrows).toEqual([
      expect.objectContaining({
        pool: 'WBTC Prime Sepolia',
        collateral: expect.objectContaining({ token: 'WBTC', baseUnits: (WBTC / 10n).toString() }),
        debt: expect.objectContaining({ token: 'USDC' }),
      }),
    ]);
    expect(BigInt(borrows[0]?.debt.baseUnits ?? '0')).toBeGreaterThanOrEqual(500n * USDC);

    const repaid = await alice(['repay', 'all', 'USDC', '--collateral', 'WBTC', '--yes']);
    expect(repaid.doc.error, repaid.stderr).toBeUndefined();
    expect(repaid.doc).toMatchObject({ transaction: { status: 'SUCCEEDED' } });

    const wbtc = async (): Promise<bigint> =>
      BigInt((await balances()).find((b) => b.symbol === 'WBTC')?.baseUnits ?? '0');
    const before = await wbtc();
    const closed = await alice([
      'close-position',
      '--collateral',
      'WBTC',
      '--debt',
      'USDC',
      '--yes',
    ]);
    expect(closed.doc.error, closed.stderr).toBeUndefined();
    expect((await wbtc()) - before).toBe(WBTC / 10n);
    const after = await alice(['lending']);
    expect(after.doc.borrows).toEqual([]);

    // STRK is not an asset of the Sepolia pool (its factory has no vToken for it)
    const strk = await alice(['supply', '10', 'STRK', '--yes']);
    expect(strk.doc.error?.code).toBeDefined();
    expect(strk.doc.error?.message).not.toMatch(/mainnet/);
  }, 300_000);

  it("staking: stake and claim on Sepolia's staking contract", async () => {
    const alpha = ['--validator', 'Sandbox Alpha', '--yes'];
    const staked = await alice(['stake', '100', ...alpha]);
    expect(staked.doc.error, staked.stderr).toBeUndefined();
    expect(staked.doc).toMatchObject({
      kind: 'stake',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'enter_delegation_pool' }],
      transaction: { status: 'SUCCEEDED' },
    });
    const advanced = await cliInProcess(users.aliceHome, ['sandbox', 'advance', '3h', '--json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    const claim = await alice(['claim-rewards', ...alpha]);
    expect(claim.doc.error, claim.stderr).toBeUndefined();
    const received = (claim.doc.transaction as { received: Array<{ baseUnits: string }> }).received;
    expect(BigInt(received[0]?.baseUnits ?? '0')).toBeGreaterThan(0n);
    const positions = (await alice(['staking'])).doc.positions as Array<{
      validator: string;
      staked: { baseUnits: string };
    }>;
    expect(positions.find((p) => p.validator === 'Sandbox Alpha')?.staked.baseUnits).toBe(
      (100n * STRK).toString(),
    );
  }, 120_000);

  it('every swap command is refused as mainnet-only before anything is signed', async () => {
    const entries = await historyLength();
    const held = await balances();
    const refusals = [
      ['trade', '10', 'USDC', 'STRK', '--yes'],
      ['quote', '10', 'USDC', 'STRK'],
      ['multi-swap', '--pairs', '10 USDC>STRK, 1 STRK>ETH', '--yes'],
      ['batch', '--swap', '10 USDC>STRK', '--send', `1 STRK>${users.bobAddress}`, '--yes'],
      ['portfolio-rebalance', '--target', 'ETH:50,STRK:50', '--yes'],
    ];
    for (const args of refusals) {
      const r = await alice(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(1);
      expect(r.doc.error, args[0]).toMatchObject({ code: 'NETWORK_UNSUPPORTED' });
      expect(r.doc.error?.message, args[0]).toMatch(/swaps are available on mainnet only/);
      expect(r.doc.error?.message, args[0]).toMatch(/the sandbox, shaped like sepolia/);
    }
    expect(await historyLength()).toBe(entries);
    expect(await balances()).toEqual(held);

    // the rule comes first: a signed-out user is told the same, not asked to sign in
    const stranger = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(stranger.dir, 'sandbox.json'));
      const r = await cliInProcess(stranger.dir, [
        'trade',
        '10',
        'USDC',
        'STRK',
        '--yes',
        '--sandbox',
        '--json',
      ]);
      expect(r.doc.error).toMatchObject({ code: 'NETWORK_UNSUPPORTED' });
    } finally {
      stranger.cleanup();
    }
  }, 120_000);

  it('the paymaster simulates at build: a call list that would revert is refused with its reason, nothing relayed', async () => {
    const { session } = JSON.parse(readFileSync(join(users.aliceHome, 'session.json'), 'utf8')) as {
      session: { token: string; address: string };
    };
    const rpc = async (url: string, method: string, params: unknown, token?: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await response.json()) as {
        result?: unknown;
        error?: { code: number; message: string; data?: { execution_error?: string } };
      };
    };
    const nonce = () =>
      rpc(users.urls.rpcUrl, 'starknet_getNonce', {
        block_id: 'latest',
        contract_address: session.address,
      });
    // the account deployed first (the tests run in any order): an undeployed one is 150 at build
    const sent = await alice(['send', '1', 'USDC', users.bobAddress, '--yes']);
    expect(sent.code, sent.stderr).toBe(0);
    const nonceBefore = (await nonce()).result;
    const held = await balances();
    // more USDC than the wallet holds, through our server's /paymaster relay
    const transfer = {
      to: SEPOLIA_USDC,
      selector: `0x${SELECTOR.transfer.toString(16)}`,
      calldata: ['0x1234', '0xffffffffffffffffffffffff', '0x0'],
    };
    const built = await rpc(
      `${users.urls.serverUrl}/paymaster`,
      'paymaster_buildTransaction',
      {
        transaction: {
          type: 'invoke',
          invoke: { user_address: session.address, calls: [transfer] },
        },
        parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
      },
      session.token,
    );
    expect(built.error).toMatchObject({
      code: 156,
      message: 'An error occurred (TRANSACTION_EXECUTION_ERROR)',
    });
    expect(built.error?.data?.execution_error).toMatch(/ERC20: insufficient balance/);
    expect((await nonce()).result).toBe(nonceBefore);
    expect(await balances()).toEqual(held);

    // the same call list through the client's words (cli/core/chain/errors.ts)
    const { paymasterRefusal } = await import('../cli/core/chain/errors.js');
    const words = paymasterRefusal(built.error ?? {});
    expect(words.code).toBe('PAYMASTER_REFUSED');
    expect(words.message).toMatch(
      /^the paymaster refused the transaction, nothing was sent: it would fail \(TRANSACTION_EXECUTION_ERROR, 156\): .*ERC20: insufficient balance/,
    );
  }, 60_000);

  it('portfolio works; asking this sandbox for mainnet is refused with its shape', async () => {
    const portfolio = await alice(['portfolio']);
    expect(portfolio.code, portfolio.stderr).toBe(0);
    expect(portfolio.doc.error).toBeUndefined();

    const wrong = await alice(['staking', '--network', 'mainnet']);
    expect(wrong.doc.error).toMatchObject({
      code: 'USAGE_ERROR',
      details: { sandboxNetwork: 'sepolia', requested: 'mainnet' },
    });
    const same = await alice(['staking', '--network', 'sepolia']);
    expect(same.code, same.stderr).toBe(0);
  }, 60_000);
});
