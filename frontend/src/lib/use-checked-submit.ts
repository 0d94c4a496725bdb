import type { QueryKey } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { Checked, FormProblems } from './form-check';
import { useChanges } from './query';

/**
 * A form's submit: `check` runs first, and its problems stand next to the fields with nothing sent; a
 * checked value goes to `send`, one at a time (`busy`). What `send` answers is `done` (e.g. "Saved.") until
 * the next submit, and the queries it `invalidates` are read again. `error` is the form's alert: the API's refusal,
 * else the check's first message. After a submit the check refused, each edit checks again.
 */
export const useCheckedSubmit = <T, Done = string>(
  check: () => Checked<T>,
  send: (value: T) => Promise<Done | undefined>,
  /** The queries the change touches, read again once it succeeds. */
  invalidates: readonly QueryKey[] = [],
) => {
  const [problems, setProblems] = useState<FormProblems>();
  const [done, setDone] = useState<Done>();
  const { busy, error, run } = useChanges<'submit'>();
  // Once a submit found problems, each change checks the form again, after the render that holds the new value (the
  // change event comes before it): a field put right loses its message as the person types, not at the next submit.
  const [edits, setEdits] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each edit (its count) is what runs the check again
  useEffect(() => {
    if (edits === 0) return;
    const checked = check();
    setProblems((shown) => (shown === undefined ? undefined : checked.ok ? undefined : checked));
  }, [edits]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(undefined);
    const checked = check();
    if (!checked.ok) return setProblems(checked);
    setProblems(undefined);
    let said: Done | undefined;
    // Said once what the change touched was read again, so "Saved." never stands beside the old state.
    void run('submit', async () => (said = await send(checked.value)), invalidates).then(() => setDone(said));
  };

  return {
    submit,
    busy: busy === 'submit',
    error: error ?? problems?.message,
    /** Each field's message, by field name. */
    fields: problems?.fields ?? {},
    done,
    /**
     * A field changed: `done` said what the last submit did, and no longer describes the form; problems shown are
     * checked again.
     */
    edited: () => {
      setDone(undefined);
      if (problems) setEdits((count) => count + 1);
    },
  };
};
