/**
 * What `execute` rejects with when what the plan depends on moved between the review and the
 * signature (the core's PLAN_CHANGED, docs/app.md "Review"): nothing was signed; `plan` is the
 * plan made again, which the app reviews in its place with what changed said and the new terms
 * highlighted. A face's error: the adapter makes it from the core's, a fake can throw it.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { PlanView } from './services.js';

export class PlanChanged extends AppError {
  readonly plan: PlanView;

  constructor(plan: PlanView, message: string) {
    super(ErrorCode.PLAN_CHANGED, message, { details: { changes: plan.changed?.changes ?? [] } });
    this.name = 'PlanChanged';
    this.plan = plan;
  }
}
