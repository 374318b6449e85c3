/**
 * One async call tied to a screen: its own AbortController, aborted when the screen leaves,
 * when a newer run starts, and when the app stops (root signal). A result that arrives after
 * its run was superseded or aborted is dropped, never shown. A failure that means the session
 * is gone (expired or revoked on the server) leaves the screen for one that says so and leads
 * to signing in again: nothing else can work without it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useUi } from '../context.js';
import { isCancelled } from '../../clients/cancel.js';
import { describeFailure } from '../failure.js';

export type TaskState<T> =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; value: T }
  | { status: 'failed'; error: unknown };

export function useTask<T>(): [
  TaskState<T>,
  (work: (signal: AbortSignal) => Promise<T>) => Promise<T | undefined>,
  () => void,
] {
  const { rootSignal, dispatch } = useUi();
  const [state, setState] = useState<TaskState<T>>({ status: 'idle' });
  const current = useRef<AbortController | undefined>(undefined);

  const cancel = useCallback(() => {
    current.current?.abort();
    current.current = undefined;
  }, []);

  useEffect(() => cancel, [cancel]);

  const run = useCallback(
    async (work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      const signal = AbortSignal.any([controller.signal, rootSignal]);
      setState({ status: 'running' });
      try {
        const value = await work(signal);
        if (current.current !== controller || signal.aborted) return undefined;
        setState({ status: 'done', value });
        return value;
      } catch (error) {
        if (current.current !== controller || isCancelled(error, signal)) return undefined;
        setState({ status: 'failed', error });
        const failure = describeFailure(error);
        if (failure.signIn)
          dispatch({
            type: 'replace',
            screen: {
              name: 'failure',
              title: failure.title,
              message: failure.message,
              next: failure.next,
              signIn: true,
            },
          });
        return undefined;
      }
    },
    [dispatch, rootSignal],
  );
  return [state, run, cancel];
}
