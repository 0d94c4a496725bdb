/**
 * Runs `run` at the browser's next idle moment, or after `timeoutMs` where the page never idles (issue 36: work a
 * person does not wait for goes after what they do). Returns what cancels it. Without requestIdleCallback (Safari),
 * the next task. The entry's map uses it; lib/after-idle.ts has its promise and hook forms for the pages' chunks.
 */
export const whenIdle = (run: () => void, timeoutMs: number): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  return nextTask(run);
};

/**
 * Runs `run` in a task of its own, after the current one (and after the tasks already queued): work split so that
 * no one task holds a phone's main thread long enough to delay a tap (issue 36). Returns what cancels it.
 */
export const nextTask = (run: () => void): (() => void) => {
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
};
