/**
 * The lending screen: Lending on the home menu; the positions with their health factor and the
 * warnings below the margin, ↑/↓ chooses the action, its fields are typed, Enter plans it through
 * the services port and opens the shared review, which takes RISK for a low health factor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { LendingDocument } from '../../core/lending.js';
import { SESSION } from '../../../test/helpers/fake-services.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';
import { AMOUNT_IN, healthOf, labelOf, lendingRequest, withKind } from './lending.js';
import { ackWord } from './review.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

const borrow = (debt: string, collateral: string, healthFactor: string | null, token = 'ETH') => ({
  pool: 'Prime',
  collateral: { token, amount: collateral, baseUnits: '0' },
  debt: { token: 'USDC', amount: debt, baseUnits: '0' },
  healthFactor,
  maxLtv: '0.8',
  liquidationPrice: '1750',
  limits: { debtFloorUsd: '10', debtCap: null, maxUtilization: '0.9' },
});

const positions = (borrows: LendingDocument['borrows']): LendingDocument => ({
  network: 'mainnet',
  account: SESSION.walletAddress,
  pools: [{ name: 'Prime', address: '0x451' }],
  supplied: [
    {
      pool: 'Prime',
      token: 'USDC',
      amount: '100',
      baseUnits: '100000000',
      valueUsd: '100.00',
      vToken: '0x1',
    },
  ],
  borrows,
});

describe('lending screen', () => {
  it('shows each supply with its value and each borrow with its health factor and max LTV', async () => {
    const services = signedIn({ lending: positions([borrow('500', '1', '1.7000')]) });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const frame = await ui.waitForFrame((f) => f.includes('Borrowed'));
    expect(frame).toContain('Supplied 100 USDC ($100.00) in Prime');
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'Borrowed 500 USDC against 1 ETH in Prime: health factor 1.7000, max LTV 0.8',
    );
    expect(frame).not.toContain('below 1.2');
    expect(frame).not.toContain('liquidated now');
  });

  it('warns below the 1.2 margin, and louder at or below 1', async () => {
    const services = signedIn({
      lending: positions([borrow('500', '1', '1.1500'), borrow('900', '4000', '1.0000', 'STRK')]),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const frame = (await ui.waitForFrame((f) => f.includes('liquidated now'))).replace(/\s+/g, ' ');
    expect(frame).toContain('Health factor 1.1500 is below 1.2: close to liquidation');
    expect(frame).toContain(
      'Health factor 1.0000 is at or below 1: this position can be liquidated now',
    );
  });

  it('borrow: ↓ ↓, the debt, its amount, the collateral and the deposit → Enter → the review', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    const opened = await openFromHome(ui, 'Lending');
    expect(opened).toContain('↑ Supply ↓');
    await ui.press(KEYS.down);
    expect(await ui.press(KEYS.down)).toContain('↑ Borrow ↓');
    await ui.type('USDC');
    await ui.press(KEYS.tab);
    await ui.type('500');
    await ui.press(KEYS.tab);
    await ui.type('ETH');
    await ui.press(KEYS.tab);
    await ui.type('1');
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the borrow'));
    expect(services.calls).toContain('plan borrow USDC 500 against ETH 1');
  });

  it('a low health factor after the borrow: the review takes RISK, then executes', async () => {
    const base = signedIn();
    const services = signedIn({
      plan: async (request) => ({
        ...(await base.plan(request, SESSION, { signal: new AbortController().signal })),
        headline: 'borrow 500 USDC against 1 ETH; health factor — → 1.1000',
        acknowledgments: [
          {
            id: 'low-health',
            reason: 'the borrow leaves the health factor at 1.1, below the safety margin of 1.2',
          },
        ],
      }),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press(KEYS.down);
    await ui.press(KEYS.down);
    await ui.press(`USDC\t500\tETH\t1\r`);
    const review = (await ui.waitForFrame((f) => f.includes('Type RISK'))).replace(/\s+/g, ' ');
    expect(review).toContain('health factor — → 1.1000');
    expect(review).toContain('below the safety margin of 1.2');
    await ui.type('SWAP');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([]);
    for (let i = 0; i < 4; i++) await ui.press(KEYS.backspace);
    await ui.type('RISK');
    await ui.press(KEYS.enter);
    await ui.waitForFrame(() => services.calls.some((c) => c.startsWith('execute')));
  });

  it('add collateral: ↓ ↓ ↓, the collateral, its amount, the debt → Enter → the review with the health factor before → after', async () => {
    const base = signedIn();
    const services = signedIn({
      plan: async (request) => ({
        ...(await base.plan(request, SESSION, { signal: new AbortController().signal })),
        headline:
          'adding 0.5 ETH of collateral to the ETH/USDC position in the Vesu Prime pool (health factor 1.0666 → 1.6000)',
      }),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press(KEYS.down);
    await ui.press(KEYS.down);
    const form = await ui.press(KEYS.down);
    expect(form).toContain('↑ Add collateral ↓');
    // the collateral first, then its amount, then the position's debt
    expect(form.indexOf('Collateral')).toBeLessThan(form.indexOf('Amount'));
    expect(form.indexOf('Amount')).toBeLessThan(form.indexOf('Debt'));
    await ui.type('ETH');
    await ui.press(KEYS.tab);
    await ui.type('0.5');
    await ui.press(KEYS.tab);
    await ui.type('USDC');
    await ui.press(KEYS.enter);
    const review = (
      await ui.waitForFrame((f) => f.includes('Review the added collateral'))
    ).replace(/\s+/g, ' ');
    expect(review).toContain('health factor 1.0666 → 1.6000');
    expect(services.calls).toContain('plan add-collateral USDC 0.5 against ETH');
  });

  it('withdraw collateral: ↑ ↑ ↑ from supply, all of it → Enter → the review', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press(KEYS.up);
    await ui.press(KEYS.up);
    const form = await ui.press(KEYS.up);
    expect(form).toContain('↑ Withdraw collateral ↓');
    expect(form).toContain('collateral to withdraw, or all');
    await ui.press('ETH\tall\tUSDC\r');
    await ui.waitForFrame((f) => f.includes('Review the collateral withdrawal'));
    expect(services.calls).toContain('plan withdraw-collateral USDC all against ETH');
  });

  it('the amount is labelled with its token and never carried into an action whose amount is in another token', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    expect(ui.frame()).toMatch(/ Amount +an amount/);
    await ui.press(KEYS.down);
    await ui.press(KEYS.down);
    const borrow = await ui.press('USDC\t0.5\tETH');
    // the borrowed amount is in the debt token; a longer label still leaves a space before its value
    expect(borrow).toMatch(/Amount \(USDC\) +0\.5/);
    expect(borrow).toMatch(/Debt +USDC/);
    expect(borrow).toMatch(/Deposit \(ETH\) +collateral to deposit/);
    // ↓ ↓: withdraw collateral, whose amount is in ETH: the 0.5 (USDC) is not carried into it
    await ui.press(KEYS.down);
    const withdraw = await ui.press(KEYS.down);
    expect(withdraw).toContain('↑ Withdraw collateral ↓');
    expect(withdraw).toMatch(/Amount \(ETH\) +collateral to withdraw, or all/);
    expect(withdraw).not.toContain('0.5');
    // Enter asks for the amount instead of planning 0.5 ETH
    expect(await ui.press(KEYS.enter)).toMatch(/› Amount \(ETH\)/);
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual([]);
    await ui.type('0.2');
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the collateral withdrawal'));
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual([
      'plan withdraw-collateral USDC 0.2 against ETH',
    ]);
  });

  it('an amount in the same token stays when the action changes (supply → withdraw supply); a close clears it', async () => {
    ui = renderWithProviders(signedIn(), { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press('USDC\t100');
    const withdraw = await ui.press(KEYS.down);
    expect(withdraw).toContain('↑ Withdraw supply ↓');
    expect(withdraw).toMatch(/Amount \(USDC\) +100/);
    // add collateral's amount is the collateral's: cleared
    await ui.press(KEYS.down);
    expect(await ui.press(KEYS.down)).not.toContain('100');
    // supply → close → repay: the same field's token, but through an action that has no amount
    await ui.press(KEYS.up);
    await ui.press(KEYS.up);
    expect(await ui.press(KEYS.up)).toContain('↑ Supply ↓');
    await ui.press(KEYS.tab);
    await ui.type('100');
    await ui.press(KEYS.up);
    const repay = await ui.press(KEYS.up);
    expect(repay).toContain('↑ Repay ↓');
    expect(repay).not.toContain('100');
  });

  it('a refusal is said only while the form asks for what was refused', async () => {
    const services = signedIn({
      plan: () =>
        Promise.reject(
          new AppError(
            ErrorCode.HEALTH_TOO_LOW,
            'nothing was signed: the health factor would fall to 0.9',
          ),
        ),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press(KEYS.up);
    await ui.press(KEYS.up);
    await ui.press(KEYS.up);
    await ui.press('ETH\tall\tUSDC\r');
    await ui.waitForFrame((f) => f.includes('health factor would fall to 0.9'));
    // ↑: add collateral — another request: the refusal is not its own
    const add = await ui.press(KEYS.up);
    expect(add).toContain('↑ Add collateral ↓');
    expect(add).not.toContain('health factor would fall');
    // back to what was refused: said again
    expect(await ui.press(KEYS.down)).toContain('health factor would fall to 0.9');
    // a changed amount is another request too
    await ui.press(KEYS.tab);
    expect(await ui.press(KEYS.backspace)).not.toContain('health factor would fall');
  });

  it('close takes the position’s two tokens only; ↑ from supply wraps to it', async () => {
    ui = renderWithProviders(signedIn(), { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const close = await ui.press(KEYS.up);
    expect(close).toContain('↑ Close position ↓');
    expect(close).not.toContain('Amount');
    // the longest label keeps a space before its value (its placeholder here)
    expect(close).toMatch(/Collateral +\S/);
  });
});

describe('lending logic', () => {
  it('builds the plan request from the fields the action takes', () => {
    const form = {
      kind: 'repay' as const,
      token: ' USDC ',
      amount: 'all',
      collateral: 'ETH',
      collateralAmount: '5',
      focus: 'token' as const,
    };
    expect(lendingRequest(form, 100).lending).toEqual({
      token: 'USDC',
      amount: 'all',
      collateral: 'ETH',
    });
    // collateral alone: the amount is the collateral's, the token the position's debt
    expect(lendingRequest({ ...form, kind: 'withdraw-collateral' }, 100)).toMatchObject({
      kind: 'withdraw-collateral',
      lending: { token: 'USDC', amount: 'all', collateral: 'ETH' },
    });
    expect(lendingRequest({ ...form, kind: 'add-collateral', amount: '0.5' }, 100).lending).toEqual(
      { token: 'USDC', amount: '0.5', collateral: 'ETH' },
    );
    expect(lendingRequest({ ...form, kind: 'close-position' }, 100).lending).toEqual({
      token: 'USDC',
      collateral: 'ETH',
    });
    expect(lendingRequest({ ...form, kind: 'borrow', collateralAmount: '' }, 100).lending).toEqual({
      token: 'USDC',
      amount: 'all',
      collateral: 'ETH',
    });
  });

  it('another action keeps the amount only when it is in the same field’s token', () => {
    const form = {
      kind: 'borrow' as const,
      token: 'USDC',
      amount: '0.5',
      collateral: 'ETH',
      collateralAmount: '1',
      focus: 'collateralAmount' as const,
    };
    const kinds = Object.keys(AMOUNT_IN) as Array<keyof typeof AMOUNT_IN>;
    for (const from of kinds)
      for (const to of kinds) {
        const next = withKind({ ...form, kind: from }, to);
        const kept = AMOUNT_IN[from] !== undefined && AMOUNT_IN[from] === AMOUNT_IN[to];
        expect(next.amount, `${from} → ${to}`).toBe(kept ? '0.5' : '');
        expect(next.kind).toBe(to);
      }
    expect(withKind(form, 'withdraw-collateral')).toMatchObject({
      amount: '',
      focus: 'collateral',
    });
    // the other fields stay as typed
    expect(withKind(form, 'repay')).toMatchObject({
      token: 'USDC',
      amount: '0.5',
      collateral: 'ETH',
    });
  });

  it('labels the amount and the deposit with their token; a position’s token is its debt', () => {
    const form = {
      kind: 'add-collateral' as const,
      token: 'USDC',
      amount: '0.5',
      collateral: ' eth ',
      collateralAmount: '',
      focus: 'amount' as const,
    };
    expect(labelOf(form, 'amount')).toBe('Amount (eth)');
    expect(labelOf(form, 'token')).toBe('Debt');
    expect(labelOf({ ...form, kind: 'supply' }, 'token')).toBe('Token');
    expect(labelOf({ ...form, kind: 'repay' }, 'amount')).toBe('Amount (USDC)');
    expect(labelOf({ ...form, kind: 'repay', token: '' }, 'amount')).toBe('Amount');
    expect(labelOf({ ...form, kind: 'borrow' }, 'collateralAmount')).toBe('Deposit (eth)');
    const address = `0x${'4'.repeat(63)}7`;
    expect(labelOf({ ...form, collateral: address }, 'amount')).toBe('Amount (0x4444…4447)');
  });

  it('reads a health factor exactly against the margin; an unreadable one is the worst case', () => {
    expect(healthOf(null)).toBe('ok');
    expect(healthOf('1.2000')).toBe('ok');
    expect(healthOf('1.1999')).toBe('low');
    expect(healthOf('1.0001')).toBe('low');
    expect(healthOf('1.0000')).toBe('liquidatable');
    expect(healthOf('abc')).toBe('liquidatable');
  });

  it('the review’s word: RISK for low health, RESTART for an exit, SWAP otherwise', () => {
    expect(ackWord(['low-health'])).toBe('RISK');
    expect(ackWord(['exit-restart'])).toBe('RESTART');
    expect(ackWord(['high-impact', 'low-health'])).toBe('SWAP');
  });
});
