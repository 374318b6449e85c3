/**
 * A form from the kinds' declarations (kind-form.ts): the fields in Tab order, what a plan
 * request carries, and the first field still to type.
 */
import { describe, expect, it } from 'vitest';
import {
  type FormSpec,
  fieldsOf,
  formParams,
  hintOf,
  type KindForm,
  missingField,
  newForm,
  nextFocus,
} from './kind-form.js';

const STAKING: FormSpec = { types: ['validator', 'amount'] };
const LENDING: FormSpec = { types: ['token', 'amount', 'amount-or-all'], slots: { debt: 'token' } };

describe('a form from the declarations', () => {
  it('takes the rendered types only; an amount in a token not asked goes last', () => {
    // stake declares amount, token (optional: STRK) and validator; the form asks no token
    expect(fieldsOf('stake', STAKING).map((f) => f.name)).toEqual(['validator', 'amount']);
    expect(fieldsOf('claim-rewards', STAKING).map((f) => f.name)).toEqual(['validator']);
    // a borrow: each amount right after the token it is in; the debt typed in the Token slot
    expect(fieldsOf('borrow', LENDING).map((f) => [f.name, f.slot])).toEqual([
      ['debt', 'token'],
      ['amount', 'amount'],
      ['collateral', 'collateral'],
      ['collateralAmount', 'collateralAmount'],
    ]);
  });

  it('words an empty field with the declared hint, else its type’s', () => {
    const [validator, amount] = fieldsOf('unstake', STAKING);
    expect(validator && hintOf(validator)).toBe('a name or a staker address');
    expect(amount && hintOf(amount)).toBe('to exit (0 cancels)');
  });

  it('carries the values under the declared names, trimmed; an empty optional one not at all', () => {
    const form: KindForm = {
      kind: 'borrow',
      values: { token: ' USDC ', amount: '500', collateral: 'ETH', collateralAmount: ' ' },
      focus: 'token',
    };
    expect(formParams(form, LENDING)).toEqual({ debt: 'USDC', amount: '500', collateral: 'ETH' });
    expect(missingField(form, LENDING)).toBeUndefined();
    // a required field left empty: the first of them, in Tab order
    const empty = { ...form, values: { ...form.values, token: '', collateral: '' } };
    expect(missingField(empty, LENDING)?.slot).toBe('token');
    expect(formParams(empty, LENDING)).toMatchObject({ debt: '', collateral: '' });
  });

  it('starts on the first kind’s first field; Tab goes round the kind’s fields', () => {
    const form = newForm(['unstake', 'claim-rewards'] as const, STAKING);
    expect(form).toEqual({ kind: 'unstake', values: {}, focus: 'validator' });
    expect(nextFocus(form, STAKING)).toBe('amount');
    expect(nextFocus({ ...form, focus: 'amount' }, STAKING)).toBe('validator');
    expect(nextFocus({ ...form, kind: 'claim-rewards' }, STAKING)).toBe('validator');
    expect(() => newForm([], STAKING)).toThrow(/a form needs a kind/);
  });
});
