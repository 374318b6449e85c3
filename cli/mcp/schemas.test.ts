import { describe, expect, it } from 'vitest';
import { planOfLeg } from '../../test/helpers/leg-fixtures.js';
import { LEG_TYPE_NAMES, legViews } from '../core/actions/legs/index.js';
import { planDocument } from '../core/actions/document.js';
import { LegView, outputs } from './schemas.js';

describe("the plan tools' output schema lists the legs", () => {
  it.each(LEG_TYPE_NAMES)('%s: its description validates, fields kept', (name) => {
    const { leg, plan } = planOfLeg(name);
    const [view] = JSON.parse(JSON.stringify(legViews([leg], plan))) as unknown[];
    expect(LegView.parse(view)).toEqual(view);
  });

  it('a plan document validates as a plan tool output; a leg of no known type does not', () => {
    const { plan } = planOfLeg('supply');
    const document = JSON.parse(JSON.stringify(planDocument(plan))) as Record<string, unknown>;
    const output = { planId: 'p1', confirmBy: 'x', executable: false, next: 'n', plan: document };
    expect(outputs.plan.safeParse(output).success).toBe(true);
    const unknown = { ...document, legs: [{ type: 'teleport' }] };
    expect(outputs.plan.safeParse({ ...output, plan: unknown }).success).toBe(false);
    const inexact = { ...document, legs: [{ type: 'supply', amount: { token: 'USDC' } }] };
    expect(outputs.plan.safeParse({ ...output, plan: inexact }).success).toBe(false);
  });
});
