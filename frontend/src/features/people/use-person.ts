import { useCallback, useEffect, useState } from 'react';
import type { IdentityUser, UserRecord } from '../../../../shared/contracts/users';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';

export interface PersonState {
  /** The identity provider's view: names, e-mail, status, groups. */
  identity?: IdentityUser;
  /** The platform's record: cart, roles, deletion queue. */
  record?: UserRecord;
  loading: boolean;
  /** Why the identity could not be read (e.g. the API's 403 for another person's profile). */
  error?: string;
  /** Why the record could not be read; the identity may still show. */
  recordError?: string;
  setIdentity: (identity: IdentityUser) => void;
  setRecord: (record: UserRecord) => void;
  reload: () => void;
}

/**
 * One person's identity and record, read side by side. Each may fail on its own (a person without a record
 * yet still has an identity); mount anew (`key`) for another person.
 */
export const usePerson = (id: string): PersonState => {
  const users = useApi('users');
  const [identity, setIdentity] = useState<IdentityUser>();
  const [record, setRecord] = useState<UserRecord>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [recordError, setRecordError] = useState<string>();
  const [version, setVersion] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` (reload()) is a reason to fetch again
  useEffect(() => {
    let active = true;
    setLoading(true);
    setError(undefined);
    setRecordError(undefined);
    void Promise.allSettled([users.getUser({ params: { id } }), users.getUserRecord({ params: { id } })]).then(
      ([who, what]) => {
        if (!active) return;
        if (who.status === 'fulfilled') setIdentity(who.value);
        else setError(errorMessage(who.reason));
        if (what.status === 'fulfilled') setRecord(what.value);
        else setRecordError(errorMessage(what.reason));
        setLoading(false);
      },
    );
    return () => {
      active = false;
    };
  }, [users, id, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { identity, record, loading, error, recordError, setIdentity, setRecord, reload };
};
