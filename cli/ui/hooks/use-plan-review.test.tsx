/**
 * usePlanReview's states, on a probe screen over a services port whose plan the test settles:
 * planning (with the core's progress), refused (the core's code and remedy kept), cancelled when
 * the screen leaves, settled by the screen, and a plan → the review with the way back.
 */
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode, isAppError } from '../../../shared/errors.js';
import { SESSION } from '../../../test/helpers/fake-services.js';
import { type Ui, UiProvider } from '../context.js';
import type { PlanRequest, PlanView, TuiServices } from '../services.js';
import type { AppAction, Screen } from '../state.js';
import { themeFor } from '../theme.js';
import { type PlanReview, usePlanReview } from './use-plan-review.js';

const SEND: PlanRequest = {
  kind: 'send',
  slippageBps: 100,
  params: { token: 'STRK', amount: '5', to: '0x1' },
};
const RETURN_TO: Screen = {
  name: 'send',
  form: { token: 'STRK', amount: '5', to: '0x1', focus: 'to' },
};

/** One services.plan call the test settles by hand. */
interface PlanCall {
  request: PlanRequest;
  signal: AbortSignal;
  onProgress: (message: string) => void;
  resolve: (plan: PlanView) => void;
  reject: (error: unknown) => void;
}

const macrotask = (): Promise<void> =>
  new Promise((resolve) => setImmediate(() => setTimeout(resolve, 0)));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await macrotask();
  }
  throw new Error(`never: ${what}`);
}

// ink-testing-library's stdout has no rows, so Ink asks terminal-size for the terminal's; without
// COLUMNS and LINES that spawns `tput` and `resize` on every render, child processes a unit test
// must not start (docs/architecture.md "Tests"). 24 rows: what the lookup answered off a terminal.
beforeAll(() => {
  vi.stubEnv('COLUMNS', '100');
  vi.stubEnv('LINES', '24');
});

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

/** The probe screen under a UiProvider; `signedIn: false` renders it with no session. */
function mount({ signedIn = true }: { signedIn?: boolean } = {}) {
  const calls: PlanCall[] = [];
  const dispatched: AppAction[] = [];
  let review: PlanReview | undefined;
  const services = {
    plan: (request, _session, call) =>
      new Promise<PlanView>((resolve, reject) => {
        calls.push({
          request,
          signal: call.signal as AbortSignal,
          onProgress: call.onProgress ?? (() => undefined),
          resolve,
          reject,
        });
      }),
  } as Pick<TuiServices, 'plan'> as TuiServices;
  const ui = {
    state: {
      screen: RETURN_TO,
      stack: [],
      environment: undefined,
      session: signedIn ? SESSION : null,
      stopping: false,
      fatal: undefined,
    },
    dispatch: (action: AppAction) => dispatched.push(action),
    services,
    theme: { ...themeFor({ NO_COLOR: '1' }), animate: false },
    rootSignal: new AbortController().signal,
    now: () => 0,
    setFooter: () => undefined,
  } satisfies Ui;
  function Probe() {
    review = usePlanReview();
    return (
      <Text>
        {review.planning.status}:{review.progress}:{review.failure?.code ?? '-'}
      </Text>
    );
  }
  const instance = render(
    <UiProvider value={ui}>
      <Probe />
    </UiProvider>,
  );
  unmount = instance.unmount;
  const current = (): PlanReview => {
    if (review === undefined) throw new Error('the probe has not rendered');
    return review;
  };
  const frame = (): string => instance.lastFrame() ?? '';
  return { calls, dispatched, current, frame, unmount: instance.unmount };
}

describe('usePlanReview', () => {
  it('planning: running, with the core progress, and no review yet', async () => {
    const probe = mount();
    expect(probe.frame()).toBe('idle::-');
    probe.current().plan(SEND, RETURN_TO);
    await until(() => probe.calls.length === 1, 'the core was asked to plan');
    expect(probe.calls[0]?.request).toEqual(SEND);
    await until(() => probe.frame() === 'running::-', 'running');
    expect(probe.current().running).toBe(true);
    probe.calls[0]?.onProgress('simulating…');
    await until(() => probe.frame() === 'running:simulating…:-', 'the progress said');
    expect(probe.current().progress).toBe('simulating…');
    expect(probe.dispatched).toEqual([]);
  });

  it('a plan opens the review, with the screen as it was left to come back to', async () => {
    const probe = mount();
    probe.current().plan(SEND, RETURN_TO);
    await until(() => probe.calls.length === 1, 'the core was asked to plan');
    const plan = { request: SEND, headline: 'send 5 STRK' } as PlanView;
    probe.calls[0]?.resolve(plan);
    await until(() => probe.dispatched.length === 1, 'the review opened');
    expect(probe.dispatched).toEqual([
      { type: 'open', screen: { name: 'review', plan }, returnTo: RETURN_TO },
    ]);
    await until(() => probe.frame().startsWith('done:'), 'done');
    expect(probe.current().running).toBe(false);
    expect(probe.current().failure).toBeUndefined();
  });

  it('refused: the core code and remedy stay as the core said them; no review', async () => {
    const probe = mount();
    probe.current().plan(SEND, RETURN_TO);
    await until(() => probe.calls.length === 1, 'the core was asked to plan');
    const refusal = new AppError(ErrorCode.ACKNOWLEDGMENT_REQUIRED, 'the plan needs a yes', {
      details: { remedy: ['confirm'] },
    });
    probe.calls[0]?.reject(refusal);
    await until(() => probe.frame() === 'failed::ACKNOWLEDGMENT_REQUIRED', 'the refusal');
    const review = probe.current();
    expect(review.running).toBe(false);
    expect(review.failure?.code).toBe(ErrorCode.ACKNOWLEDGMENT_REQUIRED);
    expect(review.failure?.message).toBe('the plan needs a yes');
    // the remedy as the hook exposes it: the core's error, details and all
    const error = review.planning.status === 'failed' ? review.planning.error : undefined;
    expect(isAppError(error) && error.details?.remedy).toEqual(['confirm']);
    expect(error).toBe(refusal);
    // said while the form asks for what failed; a change (or no request) clears it
    expect(review.failureWhile({ ...SEND })?.code).toBe(ErrorCode.ACKNOWLEDGMENT_REQUIRED);
    expect(review.failureWhile({ ...SEND, slippageBps: 50 })).toBeUndefined();
    expect(review.failureWhile(undefined)).toBeUndefined();
    expect(probe.dispatched).toEqual([]);
  });

  it('cancelled when the screen leaves: the plan is aborted and a late plan opens nothing', async () => {
    const probe = mount();
    probe.current().plan(SEND, RETURN_TO);
    await until(() => probe.calls.length === 1, 'the core was asked to plan');
    const call = probe.calls[0] as PlanCall;
    expect(call.signal.aborted).toBe(false);
    probe.unmount();
    unmount = undefined;
    expect(call.signal.aborted).toBe(true);
    call.resolve({ request: SEND, headline: 'late' } as PlanView);
    await macrotask();
    await macrotask();
    expect(probe.dispatched).toEqual([]);
  });

  it('a newer plan cancels the older one; only the newer opens the review', async () => {
    const probe = mount();
    probe.current().plan(SEND, RETURN_TO);
    await until(() => probe.calls.length === 1, 'the first plan');
    const other: PlanRequest = { ...SEND, slippageBps: 50 };
    probe.current().plan(other, RETURN_TO);
    await until(() => probe.calls.length === 2, 'the second plan');
    expect(probe.calls[0]?.signal.aborted).toBe(true);
    probe.calls[0]?.resolve({ request: SEND, headline: 'old' } as PlanView);
    const newer = { request: other, headline: 'new' } as PlanView;
    probe.calls[1]?.resolve(newer);
    await until(() => probe.dispatched.length === 1, 'the review opened');
    await macrotask();
    expect(probe.dispatched).toEqual([
      { type: 'open', screen: { name: 'review', plan: newer }, returnTo: RETURN_TO },
    ]);
  });

  it('a refusal the screen settles itself: no failure and no review', async () => {
    const probe = mount();
    const settled: unknown[] = [];
    probe.current().plan(SEND, RETURN_TO, {
      settle: (error) => {
        settled.push(error);
        return error instanceof AppError && error.code === ErrorCode.ALREADY_BALANCED;
      },
    });
    await until(() => probe.calls.length === 1, 'the core was asked to plan');
    const balanced = new AppError(ErrorCode.ALREADY_BALANCED, 'already balanced');
    probe.calls[0]?.reject(balanced);
    await until(() => probe.frame() === 'done::-', 'settled');
    expect(settled).toEqual([balanced]);
    expect(probe.current().failure).toBeUndefined();
    expect(probe.dispatched).toEqual([]);
  });

  it('signed out: nothing is planned', async () => {
    const probe = mount({ signedIn: false });
    probe.current().plan(SEND, RETURN_TO);
    await macrotask();
    expect(probe.calls).toEqual([]);
    expect(probe.frame()).toBe('idle::-');
  });
});
