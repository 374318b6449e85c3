/**
 * The staking screen: Staking on the home menu; ↑/↓ chooses the action, the validator and the
 * amount are typed, Enter plans it through the services port and opens the shared review.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
});
