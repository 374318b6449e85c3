/**
 * Where a screen that plans says how its plan goes (hooks/use-plan-review.ts): the core's
 * progress while it plans (`busy` until the first message), then a refusal in words with what to
 * do next.
 */
import type { Failure } from '../failure.js';
import type { PlanReview } from '../hooks/use-plan-review.js';
import { Busy, FailureLine } from './layout.js';

export function PlanStatus({
  review,
  busy,
  failure,
}: {
  review: PlanReview;
  /** what the running plan says before the core's first progress message */
  busy: string;
  /** the failure to say: review.failureWhile(what the form would plan now), so a change clears it */
  failure: Failure | undefined;
}) {
  return (
    <>
      {review.running ? <Busy label={review.progress || busy} /> : null}
      {failure ? <FailureLine failure={failure} /> : null}
    </>
  );
}
