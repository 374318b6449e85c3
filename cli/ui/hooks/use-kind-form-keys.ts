/**
 * The keys of a screen whose form is one kind-form (screens/kind-form.ts) over the actions the
 * kinds table routes to it (Staking, Lending): ↑/↓ choose the action (the text fields keep ←/→
 * for their cursor), Tab the next field, Enter plans what the form asks or moves to the field it
 * still needs (nothing while signed out), Ctrl+R reads the screen's positions again (the letters
 * are the fields'), Esc goes back. One place, so the two screens cannot drift apart in their keys
 * or their footer's words.
 */
import { useUi } from '../context.js';
import { type FormSpec, type KindForm, missingField, nextFocus } from '../screens/kind-form.js';
import type { PlanRequest } from '../services.js';
import type { Screen } from '../state.js';
import { useKeys } from './use-keys.js';
import type { PlanReview } from './use-plan-review.js';

export function useKindFormKeys(options: {
  form: KindForm;
  spec: FormSpec;
  /** the screen's own action change (each keeps what is typed in its own way) */
  cycle: (step: number) => void;
  /** move the cursor to a field's slot */
  focus: (slot: string) => void;
  /** what Enter plans now */
  request: PlanRequest;
  /** the screen as it is left, for the review's way back */
  returnTo: Screen;
  review: PlanReview;
  /** read the positions again */
  reload: () => void;
}): void {
  const { state, dispatch } = useUi();
  const { form, spec, review } = options;
  useKeys(
    {
      up: () => options.cycle(-1),
      down: () => options.cycle(1),
      nextField: () => options.focus(nextFocus(form, spec)),
      submit: () => {
        const missing = missingField(form, spec);
        if (missing !== undefined) options.focus(missing.slot);
        if (missing !== undefined || !state.session) return;
        review.plan(options.request, options.returnTo);
      },
      reload: options.reload,
      back: () => dispatch({ type: 'back' }),
    },
    { isActive: !review.running, wording: { up: 'action', down: 'action', submit: 'review' } },
  );
}
