/** What you confirm is exactly what is signed: `send 1.999999999 ETH` reads 1.999999999 on every line. */
import { describe, expect, it } from 'vitest';
import { ETH, OTHER, planOf } from '../../test/helpers/swap-fixtures.js';
import { planDocument } from '../core/actions/document.js';
import { renderPlan } from './plan-render.js';

describe('exact amounts in the plan', () => {
  it('send 1.999999999 ETH: the headline, the call, what leaves and the printed plan say 1.999999999', () => {
    const amount = 1_999_999_999n * 10n ** 9n;
    const doc = planDocument(planOf('send', [], [{ token: ETH, amount, to: OTHER }]), {
      gas: { mode: 'sponsored' },
      balances: [{ token: ETH.address, amount: 5n * 10n ** 18n }],
    });
    expect(doc.headline).toContain('send 1.999999999 ETH');
    expect(doc.calls[0]?.description).toContain('transfer 1.999999999 ETH');
    expect(doc.spend[0]?.total.amount).toBe('1.999999999');
    const printed = renderPlan(doc);
    expect(printed).toMatch(/1\. send 1\.999999999 ETH to 0x/);
    expect(printed).toMatch(/leaves the wallet: 1\.999999999 ETH/);
    expect(printed).not.toMatch(/1\.999999 ETH|1\.99999 ETH/);
  });
});
