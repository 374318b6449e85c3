/**
 * App state as one reducer. `screen` is a discriminated union; the back-stack holds where Esc
 * returns to. Screens dispatch; nothing else changes the screen. Pure, so it is unit-tested.
 */
import type { Environment, Receipt, Session, PlanView } from './services.js';
import type { KindsVia } from '../core/actions/kinds.js';
import type { KindForm } from './screens/kind-form.js';
import type { RowsForm } from './screens/rows-state.js';
import type { SendForm } from './screens/form-fields.js';
import type { TradeForm } from './screens/trade-state.js';

/**
 * The staking screen's form, restored when Esc or `n` comes back from the review: the kinds the
 * table reaches through the Staking screen, their fields their declared parameters
 * (screens/kind-form.ts)
 */
export type StakingForm = KindForm<KindsVia<'Staking'>>;

/** The lending screen's form, restored when Esc or `n` comes back from the review (as Staking's). */
export type LendingForm = KindForm<KindsVia<'Lending'>>;

export type Screen =
  | { name: 'connecting' }
  /** email: filled in (after a logout); note: said first */
  | { name: 'signIn'; email?: string; note?: string }
  /** selected: the menu item to highlight on return */
  | { name: 'home'; selected?: number }
  /** form: the form as typed, restored when Esc or `n` comes back from the review */
  | { name: 'trade'; form?: TradeForm }
  | { name: 'multiSwap'; form?: RowsForm }
  | { name: 'batch'; form?: RowsForm }
  /** the review of any plan (send, trade, multi-swap, batch) */
  | { name: 'review'; plan: PlanView }
  | { name: 'executing'; plan: PlanView }
  | { name: 'send'; form?: SendForm }
  | { name: 'receipt'; receipt: Receipt }
  /** signIn: the session is gone; Enter leads to signing in again */
  | {
      name: 'failure';
      title: string;
      message: string;
      next: string;
      signIn?: boolean;
      /** the refusal's stable code, said beside its words */
      code?: string;
    }
  | { name: 'history' }
  | { name: 'portfolio' }
  /** form: the targets as typed, restored when Esc comes back from the review */
  | { name: 'rebalance'; form?: { target: string; band: string; sellUnlisted: boolean } }
  /** staking: positions, and a stake, exit, withdrawal or claim through the shared review */
  | { name: 'staking'; form?: StakingForm }
  /** lending: positions with their health factor, and a supply, withdrawal, borrow, repayment or close through the shared review */
  | { name: 'lending'; form?: LendingForm }
  | { name: 'status' }
  | { name: 'settings' }
  | { name: 'logout' }
  | { name: 'unavailable'; what: string; why: string };

export type ScreenName = Screen['name'];

export interface AppState {
  screen: Screen;
  stack: Screen[];
  environment: Environment | undefined;
  session: Session | null;
  /** set by the first Ctrl+C: in-flight work is being cancelled and the app is closing */
  stopping: boolean;
  /**
   * set when everything is closed, right before the app exits: the frame draws nothing, so the
   * last thing Ink writes erases the live area and no "stopping…" stays on the terminal
   */
  stopped?: boolean;
  /** a connection failure before any screen could run */
  fatal: string | undefined;
}

export type AppAction =
  | { type: 'connected'; environment: Environment; session: Session | null }
  | { type: 'connectFailed'; message: string }
  /** push: Esc comes back to the current screen (or to `returnTo`, the current one as it should be restored) */
  | { type: 'open'; screen: Screen; returnTo?: Screen }
  /** replace the current screen (no way back to it: executing → receipt) */
  | { type: 'replace'; screen: Screen }
  | { type: 'back' }
  /** drop the stack and go home (after a receipt) */
  | { type: 'home' }
  | { type: 'signedIn'; session: Session }
  /** note: what the sign-in screen says first ("logged out") */
  | { type: 'signedOut'; note?: string }
  | { type: 'stopping' }
  | { type: 'stopped' };

export const initialState: AppState = {
  screen: { name: 'connecting' },
  stack: [],
  environment: undefined,
  session: null,
  stopping: false,
  fatal: undefined,
};

/** Screens Esc never leaves to: a running transaction must be seen through. */
const PINNED: ReadonlySet<ScreenName> = new Set(['connecting', 'executing']);

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'connected':
      return {
        ...state,
        environment: action.environment,
        session: action.session,
        screen: action.session ? { name: 'home' } : { name: 'signIn' },
        stack: [],
      };
    case 'connectFailed':
      return { ...state, fatal: action.message };
    case 'open':
      if (state.screen.name === action.screen.name) return state;
      return {
        ...state,
        stack: [...state.stack, action.returnTo ?? state.screen],
        screen: action.screen,
      };
    case 'replace':
      // a second confirmation (y pressed twice before the frame changed) must not start a second
      // execution: a running transaction is replaced only by its outcome
      if (PINNED.has(state.screen.name) && state.screen.name === action.screen.name) return state;
      return { ...state, screen: action.screen };
    case 'back': {
      if (PINNED.has(state.screen.name)) return state;
      const previous = state.stack.at(-1);
      if (previous === undefined) return state;
      return { ...state, stack: state.stack.slice(0, -1), screen: previous };
    }
    case 'home':
      return state.session ? { ...state, stack: [], screen: { name: 'home' } } : state;
    case 'signedIn':
      return { ...state, session: action.session, stack: [], screen: { name: 'home' } };
    case 'signedOut':
      // say so, and keep the address: signing in again is one Enter away
      return {
        ...state,
        session: null,
        stack: [],
        screen: {
          name: 'signIn',
          ...(state.session ? { email: state.session.email } : {}),
          ...(action.note === undefined ? {} : { note: action.note }),
        },
      };
    case 'stopping':
      return { ...state, stopping: true };
    case 'stopped':
      return { ...state, stopped: true };
  }
}
