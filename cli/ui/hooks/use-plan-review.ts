/**
 * "Plan, then review with a way back", the one flow of every screen that plans an action (send,
 * trade, multi-swap, batch, rebalance, staking, lending): the request goes to the core through
 * the services port (checked, built, simulated; nothing signed) while the screen shows its
 * progress; a plan opens the one review with `returnTo`, the screen as it was left, so Esc or `n`
 * comes back to the filled form (docs/app.md "What was typed stays as typed"); a refusal stays
 * on the form in words, its code and remedy the core's (the error is kept as the core threw it).
 * Planning is a useTask: leaving the screen cancels it and a plan that arrives after is dropped.
 */
import { useState } from 'react';
import { useUi } from '../context.js';
import { describeFailure, type Failure } from '../failure.js';
import type { PlanRequest, PlanView } from '../services.js';
import type { Screen } from '../state.js';
import { type TaskState, useTask } from './use-task.js';

export interface PlanOptions {
  /**
   * A refusal the screen says in its own way (a rebalance already in its band): true ends the
   * planning with no review and no failure.
   */
  settle?: (error: unknown) => boolean;
}

export interface PlanReview {
  /** the last plan: its error, when it failed, is the core's (code, details.remedy) */
  planning: TaskState<PlanView | undefined>;
  /** a plan is being made: the form takes no keys meanwhile */
  running: boolean;
  /** the core's last progress message for the running plan ('' until the first) */
  progress: string;
  /** the last plan's failure in words */
  failure: Failure | undefined;
  /**
   * The last plan's failure in words while the form still asks for what failed (`asking`: the
   * request the form would plan now); a change clears it.
   */
  failureWhile: (asking: PlanRequest | undefined) => Failure | undefined;
  /** plan `request`; a plan opens the review, and Esc there comes back to `returnTo` */
  plan: (request: PlanRequest, returnTo: Screen, options?: PlanOptions) => void;
}

export function usePlanReview(): PlanReview {
  const { services, state, dispatch } = useUi();
  const [planning, run] = useTask<PlanView | undefined>();
  const [progress, setProgress] = useState('');
  const [plannedFor, setPlannedFor] = useState<string | undefined>(undefined);
  const session = state.session;

  const plan = (request: PlanRequest, returnTo: Screen, options: PlanOptions = {}): void => {
    if (!session) return;
    setProgress('');
    setPlannedFor(JSON.stringify(request));
    void run(async (signal) => {
      try {
        return await services.plan(request, session, {
          signal,
          // a cancelled plan's late progress is not the next plan's
          onProgress: (message) => !signal.aborted && setProgress(message),
        });
      } catch (error) {
        if (options.settle?.(error) === true) return undefined;
        throw error;
      }
    }).then((p) => {
      if (p) dispatch({ type: 'open', screen: { name: 'review', plan: p }, returnTo });
    });
  };

  const failure = planning.status === 'failed' ? describeFailure(planning.error) : undefined;
  return {
    planning,
    running: planning.status === 'running',
    progress,
    failure,
    failureWhile: (asking) =>
      asking !== undefined && plannedFor === JSON.stringify(asking) ? failure : undefined,
    plan,
  };
}
