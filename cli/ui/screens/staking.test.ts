/**
 * The staking screen: Staking on the home menu; ↑/↓ chooses the action, the validator and the
 * amount are typed, Enter plans it through the services port and opens the shared review.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('staking', () => {
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

  it('↑/↓ cycles through the four actions; withdraw and claim take no amount', async () => {
    ui = renderWithProviders(signedIn({ features: { send: true } }));
    await openFromHome(ui, 'Staking');
    expect(await ui.press(KEYS.down)).toContain('↑ Unstake ↓');
    const withdraw = await ui.press(KEYS.down);
    expect(withdraw).toContain('↑ Withdraw ↓');
    expect(withdraw).not.toContain('Amount');
    expect(await ui.press(KEYS.down)).toContain('↑ Claim rewards ↓');
    expect(await ui.press(KEYS.down)).toContain('↑ Stake ↓');
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
