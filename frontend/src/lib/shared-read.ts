/**
 * One read shared by the callers that ask while it is under way: the first call starts it, the calls made before it
 * settles get the same promise, and the first call after it has settled starts a new one. `drop()` lets the next call
 * start anew at once (what was read may be out of date), while the callers already waiting keep their answer.
 */
export interface SharedRead<T> {
  get(): Promise<T>;
  drop(): void;
}

export const sharedWhileUnderWay = <T>(read: () => Promise<T>): SharedRead<T> => {
  let current: Promise<T> | undefined;
  return {
    get: () => {
      if (current) return current;
      const started = read().finally(() => {
        if (current === started) current = undefined;
      });
      current = started;
      return started;
    },
    drop: () => {
      current = undefined;
    },
  };
};
