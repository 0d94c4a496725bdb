import { useEffect, useState } from 'react';
import { errorMessage } from './error-message';

export interface Loaded<T> {
  /** What `load` answered; `setValue` replaces it after a change made on screen. */
  value?: T;
  /** Why `load` failed (the API's message). */
  error?: string;
  setValue: (value: T) => void;
}

/**
 * One thing read once per `load` (memoize it): a new `load` reads again, and an answer to an older one is
 * dropped. Loading is `value` and `error` both unset.
 */
export const useLoaded = <T>(load: () => Promise<T>): Loaded<T> => {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let active = true;
    setError(undefined);
    load().then(
      (found) => active && setValue(found),
      (failure: unknown) => active && setError(errorMessage(failure)),
    );
    return () => {
      active = false;
    };
  }, [load]);

  return { value, error, setValue };
};
