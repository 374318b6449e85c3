/**
 * The wallet's balances as a form shows them: read once on arrival (when the core can read
 * them), then what is held of a token, if anything — the balance beside an amount and its
 * "max" key.
 */
import { useCallback, useEffect } from 'react';
import { useUi } from '../context.js';
import type { Balances, TokenBalance } from '../services.js';
import { useTask } from './use-task.js';

export function useHeld(): (symbol: string) => TokenBalance | undefined {
  const { services, state } = useUi();
  const [balances, loadBalances] = useTask<Balances>();
  const session = state.session;

  useEffect(() => {
    if (session && services.features.balances)
      void loadBalances((signal) => services.balances(session, { signal }));
  }, [loadBalances, services, session]);

  return useCallback(
    (symbol: string) =>
      balances.status === 'done' && balances.value.available
        ? balances.value.tokens.find((t) => t.symbol === symbol)
        : undefined,
    [balances],
  );
}
