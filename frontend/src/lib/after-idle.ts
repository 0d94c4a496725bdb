import { useEffect, useState } from 'react';
import { whenIdle } from './idle';

/** `whenIdle` (lib/idle.ts) as a promise. */
export const idle = (timeoutMs: number): Promise<void> => new Promise((resolve) => whenIdle(resolve, timeoutMs));

/**
 * False on the first render, true from the first idle moment after it is drawn (or `timeoutMs` on): what a screen
 * draws below its first view waits for it, so the first view is painted without their work (decision 104).
 */
export const useIdleAfterDraw = (timeoutMs: number): boolean => {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true), timeoutMs), [timeoutMs]);
  return ready;
};
