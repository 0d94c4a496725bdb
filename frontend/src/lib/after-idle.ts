import { startTransition, useEffect, useState } from 'react';
import { whenIdle } from './idle';

/** `whenIdle` (lib/idle.ts) as a promise. */
export const idle = (timeoutMs: number): Promise<void> => new Promise((resolve) => whenIdle(resolve, timeoutMs));

/**
 * False on the first render, true from the first idle moment after it is drawn (or `timeoutMs` on): what a screen
 * draws below its first view waits for it, so the first view is painted without their work (decision 104). The
 * change is a transition, so React may yield to the browser while it renders what it reveals.
 */
export const useIdleAfterDraw = (timeoutMs: number): boolean => {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => startTransition(() => setReady(true)), timeoutMs), [timeoutMs]);
  return ready;
};

/** The longest each part after the first waits for an idle moment: a busy page still shows them all within a moment. */
const NEXT_PART_WAIT_MS = 50;

/**
 * How many of `total` parts, drawn in order, a screen shows: none on the first render, then one more at each idle
 * moment after it is drawn (the first at most `timeoutMs` on, each next at most 50 ms after the one before), so each
 * part's render, commit and first reads make a task of their own instead of one long one (issue 36: the device page's
 * panels under its first view). Each step is a transition.
 */
export const useRevealedInTurn = (total: number, timeoutMs: number): number => {
  const [revealed, setRevealed] = useState(0);
  useEffect(
    () =>
      revealed < total
        ? whenIdle(() => startTransition(() => setRevealed(revealed + 1)), revealed ? NEXT_PART_WAIT_MS : timeoutMs)
        : undefined,
    [revealed, total, timeoutMs],
  );
  return revealed;
};
