/**
 * The app's one key input. Ink calls `useInput` handlers once per stdin event, and an event can
 * hold many keys ("100\t\t\t50" from a paste, tmux send-keys or a fast typist): every handler used
 * to see the whole burst at once, through the closures and the `isActive` of the frame before it,
 * so a Tab that moves the focus could not route the characters after it (row 1 became `10050`).
 *
 * Here the root takes Ink's events (its only `useInput`), splits each into key presses
 * (key-burst.ts) and queues them; each key press goes to the handlers registered with
 * `useKeyInput` (the screen's key router, the focused field), and the next key press waits until
 * React has applied this one — rendered, committed, its effects run — so a focus change, a new
 * screen or a value typed is in place for the key after it, exactly as if typed slowly. Ctrl+C is
 * the root's and never waits. See docs/architecture.md "Interactive app".
 */
import { type Key, useInput } from 'ink';
import {
  createContext,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type KeyPress, splitBurst } from '../key-burst.js';
import { isInterrupt } from '../keymap.js';

type KeyHandler = (input: string, key: Key) => void;

interface Subscriber {
  handler: RefObject<KeyHandler>;
  active: RefObject<boolean>;
}

interface KeyRouter {
  /** add a handler (in mount order); returns its removal */
  subscribe(subscriber: Subscriber): () => void;
}

export const KeyRouterContext = createContext<KeyRouter | undefined>(undefined);

/**
 * The root's half: Ink's events in, one key press at a time out. `onInterrupt` gets Ctrl+C at once
 * (the keys still queued are dropped: the app is stopping). `isActive`: stdin can do raw mode.
 * `onIdle`: every key press received so far has been applied (tests wait for it).
 */
export function useKeyRouter(
  onInterrupt: () => void,
  isActive: boolean,
  onIdle?: () => void,
): KeyRouter {
  const subscribers = useRef<Subscriber[]>([]);
  const queue = useRef<KeyPress[]>([]);
  // a key press was delivered and React has not yet applied it
  const applying = useRef(false);
  const [delivered, setDelivered] = useState(0);
  const idle = useRef(onIdle);
  useLayoutEffect(() => {
    idle.current = onIdle;
  });

  const next = useCallback(() => {
    const press = queue.current.shift();
    if (press === undefined) {
      applying.current = false;
      idle.current?.();
      return;
    }
    applying.current = true;
    try {
      for (const subscriber of [...subscribers.current])
        if (subscriber.active.current) subscriber.handler.current(press.input, press.key);
    } finally {
      // a render of the whole tree, even for a key nothing took (or one whose handler threw: the
      // queue never stalls): the effect below then runs after every effect of that commit (the
      // new screen's handlers are registered by then)
      setDelivered((n) => n + 1);
    }
  }, []);

  useEffect(() => {
    if (!applying.current) return;
    // outside this effect: the next key's updates are a render of their own, batched as a key
    // press from Ink is, and not a cascade of updates inside effects
    const timer = setImmediate(next);
    return () => clearImmediate(timer);
  }, [delivered, next]);

  useInput(
    (input, key) => {
      if (isInterrupt(input, key)) {
        queue.current = [];
        onInterrupt();
        if (!applying.current) idle.current?.();
        return;
      }
      queue.current.push(...splitBurst(input, key));
      if (!applying.current) next();
    },
    { isActive },
  );

  return useMemo(
    () => ({
      subscribe(subscriber) {
        subscribers.current.push(subscriber);
        return () => {
          subscribers.current = subscribers.current.filter((s) => s !== subscriber);
        };
      },
    }),
    [],
  );
}

/**
 * A component's key handler, in place of Ink's `useInput`: called with one key press at a time,
 * only while `isActive`, always the handler of the latest render.
 */
export function useKeyInput(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const router = useContext(KeyRouterContext);
  if (router === undefined) throw new Error('useKeyInput outside KeyRouterContext');
  const isActive = options.isActive ?? true;
  const handlerRef = useRef(handler);
  const activeRef = useRef(isActive);
  useLayoutEffect(() => {
    handlerRef.current = handler;
    activeRef.current = isActive;
  });
  useEffect(() => router.subscribe({ handler: handlerRef, active: activeRef }), [router]);
}
