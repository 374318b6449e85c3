/**
 * A liquidation through the built bin (docs/commands.md "sandbox liquidate"): borrow → the
 * pool refuses to liquidate a healthy position (POSITION_HEALTHY) → `sandbox price` drops the
 * collateral → `sandbox liquidate` repays part of the debt through the pool's
 * `liquidate_position` → `lending --json` says the position was liquidated, what was taken and
 * what is left, in exact amounts read from the chain's LiquidatePosition event — and so do
 * `history --json` (beside the file's entries, as the chain's) and `portfolio --json`.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../cli/ui/adapter.js';
import {
  cli,
  cliInProcess,
  setSandboxPrice,
  startTwoUsers,
  type TwoUsers,
} from './helpers/cli-sandbox.js';
import { cleanEnv } from './helpers/process.js';
import { openFromHome } from './helpers/screens.js';
import { type Rendered, renderWithProviders } from './helpers/tui.js';

interface Liquidation {
  transactionHash: string;
  liquidator: string;
  collateral: { token: string; seized: string; seizedBaseUnits: string };
  debt: { token: string; repaid: string; repaidBaseUnits: string; badDebtBaseUnits: string };
  left: { collateralBaseUnits: string; debtBaseUnits: string };
}

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

describe('sandbox liquidate → lending, history and portfolio show the liquidation (whole processes)', () => {
  let users: TwoUsers;
  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it('borrow → healthy refused → price drop → liquidate 1000 USDC → lending --json: taken and left', async () => {
    const bob = (args: string[]) => cliInProcess(users.bobHome, [...args, '--sandbox', '--json']);
    const borrow = await bob(['borrow', '3000', 'USDC', '--collateral', '2 ETH', '--yes']);
    expect(borrow.doc.error, borrow.stderr).toBeUndefined();
    const liquidate = (extra: string[] = []) =>
      cli(users.bobHome, [
        'sandbox',
        'liquidate',
        'ETH',
        'USDC',
        '--user',
        users.bobAddress,
        ...extra,
        '--json',
      ]);

    const healthy = await liquidate();
    expect(healthy.code).not.toBe(0);
    expect(healthy.doc.error).toMatchObject({ code: 'POSITION_HEALTHY' });

    const before = await bob(['lending']);
    expect(before.doc.liquidations).toEqual([]);

    // $1800: 2 ETH × 1800 × 0.8 = 2880 < 3000 — liquidatable; × 0.9 = 3240 covers it: no bad debt
    await setSandboxPrice(users.bobHome, 'ETH', '1800');
    const done = await liquidate(['--repay', '1000']);
    expect(done.code, done.stderr).toBe(0);
    const answer = done.doc as unknown as {
      collateralSeized: string;
      debtRepaid: string;
      badDebt: string;
      baseUnits: { collateralSeized: string; collateralLeft: string; debtLeft: string };
      transactionHash: string;
    };
    // 1000 USDC at $1 / $1800 / 0.9, each step rounded down as the pool does
    const seized = (((((1000n * E6 * E18) / E6) * E18) / (1800n * E18)) * E18) / ((9n * E18) / 10n);
    expect(answer.baseUnits.collateralSeized).toBe(seized.toString());
    expect(answer.debtRepaid).toBe('1000');
    expect(answer.badDebt).toBe('0');

    const after = await bob(['lending']);
    expect(after.code, after.stderr).toBe(0);
    const liquidations = after.doc.liquidations as Liquidation[];
    expect(liquidations).toHaveLength(1);
    const l = liquidations[0] as Liquidation;
    expect(l.transactionHash).toBe(answer.transactionHash);
    expect(l.collateral).toMatchObject({ token: 'ETH', seizedBaseUnits: seized.toString() });
    expect(l.debt).toMatchObject({ token: 'USDC', repaidBaseUnits: (1000n * E6).toString() });
    expect(l.debt.badDebtBaseUnits).toBe('0');
    // what is left: the collateral exactly; the debt, plus the interest of the seconds since
    expect(l.left.collateralBaseUnits).toBe(answer.baseUnits.collateralLeft);
    expect(BigInt(l.left.debtBaseUnits)).toBeGreaterThanOrEqual(BigInt(answer.baseUnits.debtLeft));
    expect(BigInt(l.left.debtBaseUnits)).toBeLessThan(BigInt(answer.baseUnits.debtLeft) + 1000n);
    expect(BigInt(l.left.collateralBaseUnits)).toBe(2n * E18 - seized);
    // the borrow row agrees with what is left
    const row = (after.doc.borrows as Array<{ collateral: { baseUnits: string } }>)[0];
    expect(row?.collateral.baseUnits).toBe(l.left.collateralBaseUnits);

    const words = `liquidated: ${answer.collateralSeized} ETH of collateral seized, 1000 USDC of debt repaid`;
    const human = await cliInProcess(users.bobHome, ['lending', '--sandbox']);
    expect(human.stdout).toContain(words);

    // history: the chain's liquidation beside the file's entries, marked as not sent by this client
    const history = await bob(['history']);
    expect(history.code, history.stderr).toBe(0);
    const listed = history.doc.liquidations as Array<Liquidation & Record<string, unknown>>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      kind: 'liquidation',
      source: 'chain',
      sentByThisClient: false,
      network: 'sandbox',
      transactionHash: answer.transactionHash,
      collateral: { token: 'ETH', seizedBaseUnits: seized.toString() },
      debt: { token: 'USDC', repaidBaseUnits: (1000n * E6).toString(), badDebtBaseUnits: '0' },
      left: { collateralBaseUnits: answer.baseUnits.collateralLeft },
    });
    expect(history.doc.liquidationsRead).toMatchObject({ note: null });
    expect(String((history.doc.liquidationsRead as { scope: string }).scope)).toContain(
      'at most 10000',
    );
    // the borrow this client sent is still the file's entry; the liquidation is not in it
    const entries = history.doc.entries as Array<{ hash?: string; kind: string }>;
    expect(entries.some((e) => e.kind === 'borrow')).toBe(true);
    expect(entries.some((e) => e.hash === answer.transactionHash)).toBe(false);
    const humanHistory = await cliInProcess(users.bobHome, ['history', '--sandbox']);
    expect(humanHistory.stdout).toContain('not sent by this client');
    expect(humanHistory.stdout).toContain(words);
    expect(humanHistory.stdout).toContain(answer.transactionHash);
    // --offline asks no chain: no liquidations, and says none were read
    const offline = await bob(['history', '--offline']);
    expect(offline.doc.liquidations).toEqual([]);
    expect(offline.doc.liquidationsRead).toBeNull();

    // portfolio: the same liquidation, exact
    const portfolio = await bob(['portfolio']);
    expect(portfolio.code, portfolio.stderr).toBe(0);
    const held = portfolio.doc.liquidations as Liquidation[];
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      transactionHash: answer.transactionHash,
      collateral: { token: 'ETH', seizedBaseUnits: seized.toString() },
      debt: { token: 'USDC', repaidBaseUnits: (1000n * E6).toString(), badDebtBaseUnits: '0' },
      left: { collateralBaseUnits: answer.baseUnits.collateralLeft },
    });
    const humanPortfolio = await cliInProcess(users.bobHome, ['portfolio', '--sandbox']);
    expect(humanPortfolio.stdout).toContain(words);

    // the app, over the real services port: the history and the Lending screen say it
    const services = createServices({
      env: cleanEnv({ FINANCE_TUI_HOME: users.bobHome }),
      sandbox: true,
    });
    let ui: Rendered | undefined;
    try {
      const signal = new AbortController().signal;
      await services.connect({ signal });
      const session = await services.currentSession();
      expect(session).not.toBeNull();
      const history = await services.history(session!, { signal });
      expect(history.liquidations?.map((l) => l.transactionHash)).toEqual([answer.transactionHash]);
      ui = renderWithProviders(services, { rows: 50, columns: 200 });
      await openFromHome(ui, 'Lending');
      const frame = (await ui.waitForFrame((f) => f.includes('liquidated:'), 30_000)).replace(
        /\s+/g,
        ' ',
      );
      expect(frame).toContain(`ETH/USDC in Prime ${words}`);
    } finally {
      ui?.unmount();
      await services.close();
    }
  }, 300_000);
});
