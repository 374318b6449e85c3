/**
 * The lending screen: Lending on the home menu; the positions with their health factor and the
 * warnings below the margin, ↑/↓ chooses the action, its fields are typed, Enter plans it through
 * the services port and opens the shared review, which takes RISK for a low health factor.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { healthLevelOfWords as healthOf } from '../../../shared/vesu.js';
import type { LendingDocument } from '../../core/lending.js';
import { type Liquidation, liquidationWords } from '../../core/liquidations.js';
import { SESSION } from '../../../test/helpers/fake-services.js';
import { lendingBorrow, lendingDoc } from '../../../test/helpers/position-docs.js';
import { chooseAction, openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';
import { ACTION_KINDS, kindsVia } from '../../core/actions/kinds.js';
import type { LendingForm } from '../state.js';
import { labelOf, withField } from './kind-form.js';
import {
  amountsIn,
  fieldsFor,
  LENDING_FORM,
  lendingRequest,
  positionLines,
  REFRESH_MS,
  withKind,
} from './lending.js';
import { ackWord } from './review.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  vi.useRealTimers();
});

const borrow = lendingBorrow;
const positions = (borrows: LendingDocument['borrows']): LendingDocument => lendingDoc(borrows);

describe('lending screen', () => {
  it('shows each supply with its value and each borrow with its health factor and max LTV', async () => {
    const services = signedIn({ lending: positions([borrow('500', '1', '1.7000')]) });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const frame = await ui.waitForFrame((f) => f.includes('Borrowed'));
    expect(frame).toContain('Supplied 100 USDC ($100.00) in Prime');
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'Borrowed 500 USDC against 1 ETH in Prime: health factor 1.7000, max LTV 80 %',
    );
    expect(frame).not.toContain('below 1.2');
    expect(frame).not.toContain('liquidated now');
    // what supplying earns and borrowing costs, in the core's words
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'USDC in Prime: supplying earns 3.25 % APY (3.20 % APR), borrowing costs 8.32 % APY (8.00 % APR); utilisation 40.00 %',
    );
  });

  it('shows the rates with no position too; compact, on one line of APYs', () => {
    const doc = { ...positions([]), supplied: [] };
    expect(positionLines(doc, false).map((l) => l.text)).toEqual([
      'No positions.',
      'USDC in Prime: supplying earns 3.25 % APY (3.20 % APR), borrowing costs 8.32 % APY (8.00 % APR); utilisation 40.00 %',
    ]);
    expect(positionLines(doc, true).map((l) => l.text)).toEqual([
      'No positions.',
      'Rates in Prime (APY, supply/borrow): USDC 3.25/8.32 %',
    ]);
  });

  it('a liquidated position says so: what was taken and what is left, exact, in full and compact', async () => {
    const liquidated: Liquidation = {
      pool: 'Prime',
      transactionHash: `0x${'ab'.repeat(32)}`,
      blockNumber: 12,
      liquidator: `0x${'cd'.repeat(32)}`,
      collateral: {
        token: 'ETH',
        seized: '0.61728395061728395',
        seizedBaseUnits: '617283950617283950',
      },
      debt: {
        token: 'USDC',
        repaid: '1000',
        repaidBaseUnits: '1000000000',
        badDebt: '0',
        badDebtBaseUnits: '0',
      },
      left: {
        collateral: '1.38271604938271605',
        collateralBaseUnits: '1382716049382716050',
        debt: '2000.000001',
        debtBaseUnits: '2000000001',
      },
    };
    const doc = {
      ...positions([borrow('2000.000001', '1.38271604938271605', '0.9955')]),
      liquidations: [liquidated],
    };
    const services = signedIn({ lending: doc });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const frame = (await ui.waitForFrame((f) => f.includes('liquidated:'))).replace(/\s+/g, ' ');
    expect(frame).toContain(
      'ETH/USDC in Prime liquidated: 0.61728395061728395 ETH of collateral seized, 1000 USDC of debt repaid; left 1.38271604938271605 ETH of collateral, 2000.000001 USDC of debt',
    );
    expect(frame).toContain(liquidated.transactionHash.slice(0, 40));
    for (const compact of [false, true])
      expect(positionLines(doc, compact).map((l) => l.text)).toContain(
        `✖ ETH/USDC in Prime ${liquidationWords(liquidated)}`,
      );
  });

  it('collateral without debt reads as collateral, not "Borrowed 0", in full and compact', async () => {
    const doc = positions([{ ...borrow('0', '1', null), liquidationPrice: null }]);
    for (const compact of [false, true]) {
      const text = positionLines(doc, compact)
        .map((l) => l.text)
        .join('\n');
      expect(text).toContain('Collateral 1 ETH in Prime, no USDC borrowed: health factor —');
      expect(text).not.toContain('Borrowed');
    }
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

  it('reads the positions again every REFRESH_MS while open: a falling health factor shows, and warns, without a key', async () => {
    // only the poll's clock is faked: the frames are still waited for in real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const services = signedIn({
      lending: [
        positions([borrow('1500', '1', '1.6000')]),
        positions([borrow('1500', '1', '1.0666')]),
      ],
    });
    ui = renderWithProviders(services, { rows: 24 });
    await openFromHome(ui, 'Lending');
    const first = (await ui.waitForFrame((f) => f.includes('Borrowed'))).replace(/\s+/g, ' ');
    expect(first).toContain('health factor 1.6000');
    expect(first).toContain(`read again every ${REFRESH_MS / 1000} s while open`);
    expect(first).not.toContain('below 1.2');
    // a tick short of the interval reads nothing
    vi.advanceTimersByTime(REFRESH_MS - 1);
    expect(services.calls.filter((c) => c === 'lending')).toEqual(['lending']);
    vi.advanceTimersByTime(1);
    const lower = (await ui.waitForFrame((f) => f.includes('below 1.2'))).replace(/\s+/g, ' ');
    expect(lower).toContain('health factor 1.0666');
    expect(lower).toContain('⚠ Health factor 1.0666 is below 1.2: close to liquidation');
    expect(services.calls.filter((c) => c === 'lending')).toEqual(['lending', 'lending']);
    // the form is still there and still takes keys
    expect(await ui.press('USDC')).toMatch(/› Token +USDC/);
  });

  it('Ctrl+R reads again at once, even in a text field; a failed read keeps the last positions and says so', async () => {
    const services = signedIn({
      lending: [
        positions([borrow('1500', '1', '1.6000')]),
        new AppError(ErrorCode.CHAIN_UNREACHABLE, 'the chain did not answer'),
        positions([borrow('1500', '1', '1.0000')]),
      ],
    });
    ui = renderWithProviders(services, { rows: 24 });
    await openFromHome(ui, 'Lending');
    await ui.waitForFrame((f) => f.includes('health factor 1.6000'));
    expect(ui.frame()).toContain('Ctrl+R refresh');
    await ui.press(KEYS.ctrlR);
    const failed = (await ui.waitForFrame((f) => f.includes('did not answer'))).replace(
      /\s+/g,
      ' ',
    );
    expect(failed).toContain('health factor 1.6000');
    expect(failed).toContain('the positions below are from the last read');
    // the key typed nothing into the focused field
    expect(failed).toMatch(/› Token USDC, ETH, STRK…/);
    await ui.press(KEYS.ctrlR);
    const liquidatable = (await ui.waitForFrame((f) => f.includes('liquidated now'))).replace(
      /\s+/g,
      ' ',
    );
    expect(liquidatable).toContain('health factor 1.0000');
    expect(liquidatable).not.toContain('did not answer');
    expect(services.calls.filter((c) => c === 'lending')).toHaveLength(3);
  });

  it('in a short window the positions that do not fit in full go compact, so the form and a whole refusal stay on screen', async () => {
    const twoSupplies = positions([borrow('1500.000103', '1', '1.0666')]);
    twoSupplies.supplied.push({ ...twoSupplies.supplied[0]!, token: 'USDT', vToken: '0x2' });
    const services = signedIn({
      lending: twoSupplies,
      plan: () =>
        Promise.reject(
          new AppError(
            ErrorCode.HEALTH_TOO_LOW,
            'nothing was signed: this would leave the ETH/USDC position with a health factor of 0.7999 (at or below 1 it can be liquidated; max LTV 80 %)',
          ),
        ),
    });
    // 21 rows of 100 columns (the test terminal's width): in full, the positions would push the
    // refusal's last lines under the footer
    ui = renderWithProviders(services, { rows: 21 });
    await openFromHome(ui, 'Lending');
    await ui.waitForFrame((f) => f.includes('Borrowed'));
    await chooseAction(ui, 'Borrow');
    await ui.press('USDC\t500\tETH\r');
    const frame = await ui.waitForFrame((f) => f.includes('Borrow or withdraw less'));
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(21);
    const flat = frame.replace(/\s+/g, ' ');
    // compact: the supplies on one line, the borrow with its warning folded in
    expect(flat).toContain('Supplied in Prime: 100 USDC ($100.00), 100 USDT ($100.00)');
    expect(flat).toContain(
      'Borrowed 1500.000103 USDC against 1 ETH in Prime: health factor 1.0666 ⚠ below 1.2: liquidation at ETH $1750',
    );
    expect(flat).toContain('a taller window shows each in full');
    // the whole form and the whole refusal, then the footer
    expect(flat).toMatch(/› Collateral +ETH/);
    expect(flat).toContain('Deposit (ETH)');
    expect(flat).toContain(
      'max LTV 80 %) (HEALTH_TOO_LOW) Nothing was signed. Borrow or withdraw less',
    );
    expect(flat).toContain('Enter review');
  });

  it('borrow: chosen by its label, the debt, its amount, the collateral and the deposit → Enter → the review', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    const opened = await openFromHome(ui, 'Lending');
    expect(opened).toContain('↑ Supply ↓');
    expect(await chooseAction(ui, 'Borrow')).toContain('↑ Borrow ↓');
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

  it('a low health factor after the borrow: the review takes RISK (a wrong word says what to type), then executes', async () => {
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
    await chooseAction(ui, 'Borrow');
    await ui.press(`USDC\t500\tETH\t1\r`);
    const review = (await ui.waitForFrame((f) => f.includes('Type RISK'))).replace(/\s+/g, ' ');
    expect(review).toContain('health factor — → 1.1000');
    expect(review).toContain('below the safety margin of 1.2');
    // a word that is not the one asked is said, with the word to type — never ignored
    for (const wrong of ['y', 'risk', 'SWAP']) {
      await ui.type(wrong);
      const said = (await ui.press(KEYS.enter)).replace(/\s+/g, ' ');
      expect(said).toContain(`"${wrong}" is not RISK: type RISK exactly (capital letters)`);
      expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([]);
      for (let i = 0; i < wrong.length; i++) await ui.press(KEYS.backspace);
    }
    expect(ui.frame()).not.toContain('is not RISK');
    await ui.type('RISK');
    await ui.press(KEYS.enter);
    await ui.waitForFrame(() => services.calls.some((c) => c.startsWith('execute')));
  });

  it("the review shows the plan's terms in the core's words, under its headline", async () => {
    const base = signedIn();
    const terms = [
      'leaves the wallet: 1 ETH',
      'arrives in the wallet: 500 USDC (borrowed)',
      'position after: owes 500 USDC, 1 ETH collateral; health factor — → 4.8',
    ];
    const services = signedIn({
      plan: async (request) => ({
        ...(await base.plan(request, SESSION, { signal: new AbortController().signal })),
        headline: 'borrowing 500 USDC against ETH in the Vesu Prime pool (health factor — → 4.8)',
        lines: terms.map((words) => ({
          kind: 'term' as const,
          leg: null,
          words,
          amounts: [],
          to: null,
        })),
      }),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await chooseAction(ui, 'Borrow');
    await ui.press(`USDC\t500\tETH\t1\r`);
    const review = await ui.waitForFrame((f) => f.includes('Review the borrow'));
    const at = terms.map((t) => review.indexOf(t));
    expect(at.every((i) => i > review.indexOf('health factor — → 4.8)'))).toBe(true);
    expect(at).toEqual([...at].sort((x, y) => x - y));
  });

  it('add collateral: chosen by its label, the collateral, its amount, the debt → Enter → the review with the health factor before → after', async () => {
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
    const form = await chooseAction(ui, 'Add collateral');
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

  it('withdraw collateral: chosen by its label (↑ from supply), all of it → Enter → the review', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const form = await chooseAction(ui, 'Withdraw collateral', KEYS.up);
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
    await chooseAction(ui, 'Borrow');
    const borrow = await ui.press('USDC\t0.5\tETH');
    // the borrowed amount is in the debt token; a longer label still leaves a space before its value
    expect(borrow).toMatch(/Amount \(USDC\) +0\.5/);
    expect(borrow).toMatch(/Debt +USDC/);
    expect(borrow).toMatch(/Deposit \(ETH\) +collateral to deposit/);
    // withdraw collateral, whose amount is in ETH: the 0.5 (USDC) is not carried into it
    const withdraw = await chooseAction(ui, 'Withdraw collateral');
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

  it('an amount stays only for the action’s inverse (supply → withdraw supply, not → borrow); a close clears it', async () => {
    ui = renderWithProviders(signedIn(), { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await ui.press('USDC\t100');
    const withdraw = await chooseAction(ui, 'Withdraw supply');
    expect(withdraw).toMatch(/Amount \(USDC\) +100/);
    // a borrow's amount is in the same field's token but is another side's (a debt): cleared
    const borrowing = await chooseAction(ui, 'Borrow');
    expect(borrowing).toMatch(/Amount \(USDC\) +an amount/);
    expect(borrowing).not.toContain('100');
    // supply → close → repay: through an action that has no amount, to another side's
    await chooseAction(ui, 'Supply', KEYS.up);
    await ui.press(KEYS.tab);
    await ui.type('100');
    expect(await chooseAction(ui, 'Close position', KEYS.up)).not.toContain('Amount');
    const repay = await chooseAction(ui, 'Repay', KEYS.up);
    expect(repay).not.toContain('100');
  });

  it('an edit of the token clears the amount typed in it: 100 USDC never becomes 100 ETH', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    expect(await ui.press('USDC\t100')).toMatch(/Amount \(USDC\) +100/);
    // Tab wraps to the token: USDC → ETH
    await ui.press(KEYS.tab);
    for (let i = 0; i < 4; i++) await ui.press(KEYS.backspace);
    const eth = await ui.press('ETH');
    expect(eth).toMatch(/Amount \(ETH\) +an amount/);
    expect(eth).not.toContain('100');
    // Enter asks for the amount instead of planning 100 ETH
    expect(await ui.press(KEYS.enter)).toMatch(/› Amount \(ETH\)/);
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual([]);
    // the amount, then an edit of its token: the amount goes at the first keystroke
    expect(await ui.press('7')).toMatch(/Amount \(ETH\) +7/);
    await ui.press(KEYS.tab);
    expect(await ui.press(KEYS.backspace)).toMatch(/Amount \(ET\) +an amount/);
    // in the form's order (the token, then its amount) it plans what was typed
    const strk = await ui.press(`${KEYS.backspace}${KEYS.backspace}STRK${KEYS.tab}7`);
    expect(strk).toMatch(/Amount \(STRK\) +7/);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the supply'));
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual(['plan supply STRK 7']);
  });

  it('an edit of the collateral clears the borrow’s deposit and the collateral actions’ amount; the deposit does not outlive the borrow', async () => {
    const services = signedIn();
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    await chooseAction(ui, 'Borrow');
    expect(await ui.press('USDC\t500\tETH\t1')).toMatch(/Deposit \(ETH\) +1/);
    // Tab → the debt, Tab → its amount, Tab → the collateral: ETH → STRK
    await ui.press(`${KEYS.tab}${KEYS.tab}${KEYS.tab}`);
    for (let i = 0; i < 3; i++) await ui.press(KEYS.backspace);
    const strk = await ui.press('STRK');
    expect(strk).toMatch(/Deposit \(STRK\) +collateral to deposit/);
    // the borrowed amount is the debt's, which did not change
    expect(strk).toMatch(/Amount \(USDC\) +500/);
    // a deposit typed again, then ↓ ↑: away from the borrow and back, the deposit is gone
    await ui.press(`${KEYS.tab}2`);
    await ui.press(KEYS.down);
    const back = await chooseAction(ui, 'Borrow', KEYS.up);
    expect(back).toMatch(/Deposit \(STRK\) +collateral to deposit/);
    // add collateral: its amount is the collateral's; a changed collateral clears it
    await chooseAction(ui, 'Add collateral');
    expect(await ui.press(`${KEYS.tab}0.5`)).toMatch(/Amount \(STRK\) +0\.5/);
    await ui.press(`${KEYS.tab}${KEYS.tab}`);
    for (let i = 0; i < 4; i++) await ui.press(KEYS.backspace);
    const eth = await ui.press('ETH');
    expect(eth).toMatch(/Amount \(ETH\) +collateral to add/);
    expect(eth).not.toContain('0.5');
    await ui.press(KEYS.enter);
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual([]);
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
    await chooseAction(ui, 'Withdraw collateral', KEYS.up);
    await ui.press('ETH\tall\tUSDC\r');
    const refused = await ui.waitForFrame((f) => f.includes('health factor would fall to 0.9'));
    // in the words of a refusal, not of a fault
    expect(refused).toContain('✗ The health factor would be too low:');
    expect(refused).toContain('Nothing was signed. Borrow or withdraw less, add collateral');
    // add collateral — another request: the refusal is not its own
    const add = await chooseAction(ui, 'Add collateral', KEYS.up);
    expect(add).not.toContain('health factor would fall');
    // back to what was refused: said again
    expect(await chooseAction(ui, 'Withdraw collateral')).toContain(
      'health factor would fall to 0.9',
    );
    // a changed amount is another request too
    await ui.press(KEYS.tab);
    expect(await ui.press(KEYS.backspace)).not.toContain('health factor would fall');
  });

  it('close takes the position’s two tokens only; ↑ from supply wraps to it', async () => {
    ui = renderWithProviders(signedIn(), { rows: 40, columns: 100 });
    await openFromHome(ui, 'Lending');
    const close = await chooseAction(ui, 'Close position', KEYS.up);
    expect(close).not.toContain('Amount');
    // the longest label keeps a space before its value (its placeholder here)
    expect(close).toMatch(/Collateral +\S/);
  });
});

describe('lending logic', () => {
  /** A Lending form as typed: the debt (or the token supplied) is typed in the Token field. */
  const typed = (
    kind: LendingForm['kind'],
    values: Record<string, string>,
    focus = 'token',
  ): LendingForm => ({ kind, values, focus });

  it('builds the plan request from the fields the action takes, under the declared names', () => {
    const form = typed('repay', {
      token: ' USDC ',
      amount: 'all',
      collateral: 'ETH',
      collateralAmount: '5',
    });
    expect(lendingRequest(form, 100).params).toEqual({
      debt: 'USDC',
      amount: 'all',
      collateral: 'ETH',
    });
    // collateral alone: the amount is the collateral's, the token the position's debt
    expect(lendingRequest({ ...form, kind: 'withdraw-collateral' }, 100)).toMatchObject({
      kind: 'withdraw-collateral',
      params: { debt: 'USDC', amount: 'all', collateral: 'ETH' },
    });
    expect(
      lendingRequest(
        { ...form, kind: 'add-collateral', values: { ...form.values, amount: '0.5' } },
        100,
      ).params,
    ).toEqual({ debt: 'USDC', amount: '0.5', collateral: 'ETH' });
    expect(lendingRequest({ ...form, kind: 'close-position' }, 100).params).toEqual({
      debt: 'USDC',
      collateral: 'ETH',
    });
    expect(
      lendingRequest(
        { ...form, kind: 'borrow', values: { ...form.values, collateralAmount: '' } },
        100,
      ).params,
    ).toEqual({ debt: 'USDC', amount: 'all', collateral: 'ETH' });
    expect(lendingRequest({ ...form, kind: 'supply' }, 100).params).toEqual({
      amount: 'all',
      token: 'USDC',
    });
  });

  it('each action’s fields are its declared parameters, the token an amount is in before it', () => {
    const fields = (kind: LendingForm['kind']) => fieldsFor(kind).map((f) => f.slot);
    expect(fields('supply')).toEqual(['token', 'amount']);
    expect(fields('withdraw')).toEqual(['token', 'amount']);
    expect(fields('borrow')).toEqual(['token', 'amount', 'collateral', 'collateralAmount']);
    expect(fields('repay')).toEqual(['token', 'amount', 'collateral']);
    expect(fields('add-collateral')).toEqual(['collateral', 'amount', 'token']);
    expect(fields('withdraw-collateral')).toEqual(['collateral', 'amount', 'token']);
    expect(fields('close-position')).toEqual(['collateral', 'token']);
    // every lending kind of the table, each with a field for every required parameter
    for (const kind of kindsVia('Lending'))
      for (const [name, p] of Object.entries(ACTION_KINDS[kind].params))
        if (p.required) expect(fieldsFor(kind).map((f) => f.name)).toContain(name);
  });

  it('another action keeps the amount only when it is the action’s inverse; the deposit never', () => {
    const form = typed(
      'borrow',
      { token: 'USDC', amount: '0.5', collateral: 'ETH', collateralAmount: '1' },
      'collateralAmount',
    );
    const inverse = new Set([
      'supply withdraw',
      'withdraw supply',
      'borrow repay',
      'repay borrow',
      'add-collateral withdraw-collateral',
      'withdraw-collateral add-collateral',
    ]);
    const kinds = kindsVia('Lending');
    for (const from of kinds)
      for (const to of kinds) {
        if (from === to) continue;
        const next = withKind({ ...form, kind: from }, to);
        expect(next.values.amount, `${from} → ${to}`).toBe(
          inverse.has(`${from} ${to}`) ? '0.5' : '',
        );
        expect(next.values.collateralAmount, `${from} → ${to}`).toBe('');
        expect(next.kind).toBe(to);
        // a kept amount is always in the same token
        if (next.values.amount !== '') expect(amountsIn(to).amount).toBe(amountsIn(from).amount);
      }
    expect(withKind(form, 'withdraw-collateral')).toMatchObject({
      values: { amount: '' },
      focus: 'collateral',
    });
    // the other fields stay as typed
    expect(withKind(form, 'repay').values).toMatchObject({
      token: 'USDC',
      amount: '0.5',
      collateral: 'ETH',
    });
  });

  it('an edit of the field naming a token clears what is typed in that token', () => {
    const form = typed('borrow', {
      token: 'USDC',
      amount: '0.5',
      collateral: 'ETH',
      collateralAmount: '1',
    });
    const edit = (f: LendingForm, slot: string, value: string) =>
      withField(f, LENDING_FORM, slot, value);
    // the debt token: the borrowed amount goes, the deposit (the collateral's) stays
    expect(edit(form, 'token', 'USD').values).toMatchObject({
      token: 'USD',
      amount: '',
      collateralAmount: '1',
    });
    // the collateral: the deposit goes, the borrowed amount stays
    expect(edit(form, 'collateral', 'ETHX').values).toMatchObject({
      amount: '0.5',
      collateralAmount: '',
    });
    // any change counts, even one a trim would not see
    expect(edit(form, 'token', 'USDC ').values.amount).toBe('');
    // the collateral actions: the amount is the collateral's, the debt token does not move it
    const add = { ...form, kind: 'add-collateral' as const };
    expect(edit(add, 'token', 'STRK').values.amount).toBe('0.5');
    expect(edit(add, 'collateral', 'STRK').values.amount).toBe('');
    // the amount itself, or no change at all, clears nothing
    expect(edit(form, 'amount', '0.75').values).toMatchObject({
      amount: '0.75',
      collateralAmount: '1',
    });
    expect(edit(form, 'token', 'USDC')).toBe(form);
    // typing a token after its amount is a change too
    expect(
      edit({ ...form, values: { ...form.values, token: '' } }, 'token', 'U').values.amount,
    ).toBe('');
    expect(
      edit({ ...form, values: { ...form.values, collateral: '' } }, 'collateral', 'E').values
        .collateralAmount,
    ).toBe('');
  });

  it('labels the amount and the deposit with their token; a position’s token is its debt', () => {
    const form = typed(
      'add-collateral',
      { token: 'USDC', amount: '0.5', collateral: ' eth ', collateralAmount: '' },
      'amount',
    );
    const label = (f: LendingForm, slot: string): string => {
      const field = fieldsFor(f.kind).find((x) => x.slot === slot);
      if (field === undefined) throw new Error(`${f.kind} has no ${slot}`);
      return labelOf(f, LENDING_FORM, field);
    };
    expect(label(form, 'amount')).toBe('Amount (eth)');
    expect(label(form, 'token')).toBe('Debt');
    expect(label({ ...form, kind: 'supply' }, 'token')).toBe('Token');
    expect(label({ ...form, kind: 'repay' }, 'amount')).toBe('Amount (USDC)');
    expect(label({ ...form, kind: 'repay', values: { ...form.values, token: '' } }, 'amount')).toBe(
      'Amount',
    );
    expect(label({ ...form, kind: 'borrow' }, 'collateralAmount')).toBe('Deposit (eth)');
    const address = `0x${'4'.repeat(63)}7`;
    expect(label({ ...form, values: { ...form.values, collateral: address } }, 'amount')).toBe(
      'Amount (0x4444…4447)',
    );
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
