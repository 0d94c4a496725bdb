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
