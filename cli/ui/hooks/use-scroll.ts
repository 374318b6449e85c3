/**
 * A screen taller than the rows the frame leaves it (a review of a batch on a small terminal):
 * its content is measured after each layout, ↑/↓ move it a line at a time, and `seenAll` says
 * whether its last line has been on screen — what a review waits for before it takes a
 * confirmation, so nothing is signed that was clipped away.
 */
import { type DOMElement, measureElement } from 'ink';
import { type RefObject, useContext, useEffect, useRef, useState } from 'react';
import { ScreenRows } from '../context.js';

interface Scroll {
  /** on the content's box (which takes `marginTop: -offset`) */
  ref: RefObject<DOMElement | null>;
  offset: number;
  /** content lines below the window when at the top; 0: it all fits */
  hidden: number;
  /** the last line has been on screen (at some point) */
  seenAll: boolean;
  /** one line down / up (no-ops at the ends) */
  down(): void;
  up(): void;
}

export function useScroll(): Scroll {
  const rows = useContext(ScreenRows);
  const ref = useRef<DOMElement | null>(null);
  const [height, setHeight] = useState(0);
  const [wanted, setOffset] = useState(0);
  const [deepest, setDeepest] = useState(0);
  // after every layout: the content's height (it changes as the screen's state does). No
  // dependency list on purpose: a layout is not a value React can name; setHeight runs only
  // when the measure changed, so the chain stops after one render.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- runs after every layout, see above
  useEffect(() => {
    if (!ref.current) return;
    const measured = measureElement(ref.current).height;
    if (measured !== height) setHeight(measured);
  });
  const hidden = Number.isFinite(rows) ? Math.max(0, height - rows) : 0;
  const offset = Math.min(wanted, hidden);
  useEffect(() => {
    if (offset > deepest) setDeepest(offset);
  }, [deepest, offset]);
  return {
    ref,
    offset,
    hidden,
    seenAll: height > 0 && Math.max(offset, deepest) >= hidden,
    down: () => setOffset(Math.min(hidden, offset + 1)),
    up: () => setOffset(Math.max(0, offset - 1)),
  };
}
