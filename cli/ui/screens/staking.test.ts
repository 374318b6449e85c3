/**
 * The staking screen: Staking on the home menu; ↑/↓ chooses the action, the validator and the
 * amount are typed, Enter plans it through the services port and opens the shared review.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StakingDocument } from '../../core/staking.js';
import { LIVE_READ_MS } from '../hooks/use-periodic-read.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { stakingDoc } from '../../../test/helpers/position-docs.js';
import { ACTION_KINDS, kindsVia } from '../../core/actions/kinds.js';
import { chooseAction, openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  vi.useRealTimers();
});

describe('staking positions read again', () => {
  it('every LIVE_READ_MS while open (after `sandbox advance` the exit shows without a key); a tick while a read is out skips', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const services = signedIn({
      staking: [stakingDoc('100'), stakingDoc('60', '40', '2026-11-30T00:00:00.000Z')],
    });
    ui = renderWithProviders(services, { rows: 24, columns: 80 });
    await openFromHome(ui, 'Staking');
    const first = await ui.waitForFrame((f) => f.includes('staked 100 STRK'));
    expect(first).toContain(`read again every ${LIVE_READ_MS / 1000} s while open`);
    vi.advanceTimersByTime(LIVE_READ_MS - 1);
    expect(services.calls.filter((c) => c === 'staking')).toEqual(['staking']);
    vi.advanceTimersByTime(1);
    const after = (await ui.waitForFrame((f) => f.includes('exiting 40'))).replace(/\s+/g, ' ');
    expect(after).toContain('withdrawable at 2026-11-30T00:00:00.000Z');
    expect(services.calls.filter((c) => c === 'staking')).toEqual(['staking', 'staking']);
  });

  it('Ctrl+R reads again at once, even in a text field; a failed read keeps the last positions and says so', async () => {
    const services = signedIn({
      staking: [
        stakingDoc('100'),
        new AppError(ErrorCode.CHAIN_UNREACHABLE, 'the chain did not answer'),
        stakingDoc('70'),
      ],
    });
    ui = renderWithProviders(services, { rows: 24, columns: 80 });
    await openFromHome(ui, 'Staking');
    await ui.waitForFrame((f) => f.includes('staked 100 STRK'));
    expect(ui.frame()).toContain('Ctrl+R');
    await ui.press(KEYS.ctrlR);
    const failed = (await ui.waitForFrame((f) => f.includes('did not answer'))).replace(
      /\s+/g,
      ' ',
    );
    expect(failed).toContain('staked 100 STRK');
    expect(failed).toContain('the positions below are from the last read');
    expect(failed).toMatch(/› Validator +a name or a staker address/);
    await ui.press(KEYS.ctrlR);
    await ui.waitForFrame((f) => f.includes('staked 70 STRK'));
    expect(services.calls.filter((c) => c === 'staking')).toEqual([
      'staking',
      'staking',
      'staking',
    ]);
  });
});

const money = (baseUnits: string, amount: string) => ({ amount, baseUnits });

/** A staking document where Sandbox Beta's staker was removed and the wallet is a member there. */
const removedDoc = (): StakingDocument => ({
  network: 'sandbox',
  account: '0xa11ce',
  totalStake: money('1000', '0.000000000000001'),
  validators: [
    {
      name: 'Sandbox Beta',
      staker: '0xbe7a',
      pool: '0xb001',
      token: 'STRK',
      commissionBps: 0,
      active: false,
      inactiveReason: 'its staker was removed from staking',
      stakerRemoved: true,
      stake: money('0', '0'),
      shareOfTotalStake: '0',
    },
  ],
  positions: [
    {
      validator: 'Sandbox Beta',
      staker: '0xbe7a',
      pool: '0xb001',
      token: 'STRK',
      staked: money('100000000000000000000', '100'),
      unclaimedRewards: money('5', '0.000000000000000005'),
      exiting: money('0', '0'),
      withdrawableAt: null,
      rewardAddress: '0xa11ce',
      stakerRemoved: true,
      memberCan: ['unstake', 'claim-rewards'],
    },
  ],
});

describe('staking', () => {
  it("a removed staker's position says so and what the member can still do", async () => {
    const services = signedIn({ features: { send: true } });
    services.staking = () => Promise.resolve(removedDoc());
    ui = renderWithProviders(services, { rows: 40, columns: 160 });
    await openFromHome(ui, 'Staking');
    const frame = await ui.waitForFrame((f) => f.includes('staker was removed'));
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'its staker was removed: no more rewards, no new stake; you can still Unstake (withdrawable at once), Claim rewards',
    );
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'Sandbox Beta (0 % of the total stake; staker removed)',
    );
  });

  it('Staking from home → stake, a validator and an amount → Enter plans it → the review', async () => {
    const services = signedIn({ features: { send: true } });
    ui = renderWithProviders(services);
    const opened = await openFromHome(ui, 'Staking');
    expect(opened).toContain('↑ Stake ↓');
    await ui.type('Alpha');
    await ui.press(KEYS.tab);
    await ui.type('100');
    await ui.press(KEYS.enter);
    const review = await ui.waitForFrame((f) => f.includes('Review the stake'));
    expect(review).toContain('Review the stake');
    expect(services.calls.some((c) => c.startsWith('plan stake'))).toBe(true);
  });

  it('↑/↓ cycles through the actions in the table order; withdraw and claim take no amount', async () => {
    ui = renderWithProviders(signedIn({ features: { send: true } }));
    await openFromHome(ui, 'Staking');
    // each ↓ the next action the kinds table routes here, by its label; round to the first
    const labels = kindsVia('Staking').map((k) => ACTION_KINDS[k].label);
    for (const label of [...labels.slice(1), labels[0]])
      expect(await ui.press(KEYS.down)).toContain(`↑ ${label} ↓`);
    expect(await chooseAction(ui, 'Withdraw')).not.toContain('Amount');
    expect(await chooseAction(ui, 'Claim rewards')).not.toContain('Amount');
  });

  it('the amount is labelled STRK; a refusal is said only while the form asks for what was refused', async () => {
    const services = signedIn({
      features: { send: true },
      plan: () =>
        Promise.reject(
          new AppError(ErrorCode.VALIDATOR_INACTIVE, 'Alpha takes no new stakes (leaving)'),
        ),
    });
    ui = renderWithProviders(services, { rows: 40, columns: 100 });
    await openFromHome(ui, 'Staking');
    const form = await ui.press('Alpha\t100');
    expect(form).toMatch(/› Amount \(STRK\) +100/);
    // one label column: the values start together
    const lines = form.split('\n');
    const at = (label: string, value: string): number => {
      const line = lines.find((l) => l.includes(label)) ?? '';
      return line.indexOf(value, line.indexOf(label) + label.length);
    };
    expect(at('Validator', 'Alpha')).toBe(at('Amount (STRK)', '100'));
    expect(at('Action', '↑')).toBe(at('Amount (STRK)', '100'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Alpha takes no new stakes'));
    // another amount is another request: the refusal is not its own
    expect(await ui.type('0')).not.toContain('Alpha takes no new stakes');
    expect(await ui.press(KEYS.backspace)).toContain('Alpha takes no new stakes');
    // another action too
    expect(await ui.press(KEYS.down)).not.toContain('Alpha takes no new stakes');
  });
});
