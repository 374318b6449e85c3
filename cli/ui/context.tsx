/**
 * The one container: app state and dispatch, the services port, the theme, and the root
 * AbortSignal (aborted by the first Ctrl+C; every request a screen makes derives from it).
 * Screens are presentational over this.
 */
import { createContext, type Dispatch, type ReactNode, useContext } from 'react';
import type { Action } from './keymap.js';
import type { AppAction, AppState } from './state.js';
import type { TuiServices } from './services.js';
import type { Theme } from './theme.js';

export interface Ui {
  state: AppState;
  dispatch: Dispatch<AppAction>;
  services: TuiServices;
  theme: Theme;
  /** aborted when the app is stopping */
  rootSignal: AbortSignal;
  /** the wall clock; tests replace it */
  now: () => number;
  /** how long the live quote waits for typing to pause (DEBOUNCE_MS); tests shorten it */
  quoteDebounceMs?: number;
  /** the current screen's key router says which keys the footer lists */
  setFooter: (footer: FooterSpec) => void;
}

export interface FooterSpec {
  actions: readonly Action[];
  wording: Partial<Record<Action, string>>;
}

export const NO_FOOTER: FooterSpec = { actions: [], wording: {} };

const UiContext = createContext<Ui | undefined>(undefined);

export function UiProvider({ value, children }: { value: Ui; children: ReactNode }) {
  return <UiContext.Provider value={value}>{children}</UiContext.Provider>;
}

/** The rows the frame leaves a screen (it clips the rest): a screen taller than this scrolls. */
export const ScreenRows = createContext<number>(Number.POSITIVE_INFINITY);

export function useUi(): Ui {
  const ui = useContext(UiContext);
  if (ui === undefined) throw new Error('useUi outside UiProvider');
  return ui;
}
