import { useState } from 'react';
import { errorMessage } from './error-message';

/**
 * A screen's changes, one at a time: which one is under way (its controls wait) and why the last one failed
 * (the API's message as it comes, or a check's refusal set through `setError`).
 */
export const useAction = <Busy extends string = string>() => {
  const [busy, setBusy] = useState<Busy>();
  const [error, setError] = useState<string>();

  const run = async (what: Busy, action: () => Promise<void>) => {
    setBusy(what);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(undefined);
    }
  };

  return { busy, error, setError, run };
};
