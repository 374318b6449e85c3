import { describe, expect, it } from 'vitest';
import { E18, vesuPair as pair } from '../../../../test/helpers/lending-fixtures.js';
import { borrowSpec } from '../../../../test/helpers/leg-fixtures.js';
import { legPlanOf } from '../../../../test/helpers/swap-fixtures.js';
import { legsMoved } from './index.js';
import { positionLegOf } from './position-read.js';

describe('what moved before signing (legsMoved)', () => {
  it('an acknowledgment the legs need now and the reviewed plan did not ask for is a change: a health factor fallen below the margin', () => {
    // 1000 USDC against 2 ETH at $3000: health 4.8, nothing to acknowledge
    const reviewed = positionLegOf(borrowSpec, pair(0n));
    const plan = legPlanOf('borrow', reviewed);
    expect(legsMoved([reviewed], [positionLegOf(borrowSpec, pair(0n))], plan)).toEqual([]);
    // ETH at $700 before signing: health 1.12, below the 1.2 margin
    const fell = positionLegOf(
      borrowSpec,
      pair(0n, {
        prices: {
          collateral: { value: 700n * E18, valid: true },
          debt: { value: E18, valid: true },
        },
      }),
    );
    expect(legsMoved([reviewed], [fell], plan)).toEqual([
      expect.stringMatching(/^it now needs your acknowledgment: .*health factor at 1\.12/),
    ]);
  });
});
