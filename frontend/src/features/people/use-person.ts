import { useCallback, useEffect, useState } from 'react';
import type { IdentityUser, UserRecord } from '../../../../shared/contracts/users';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { type IdentityCacheState, identityCache } from '../../lib/identity-cache';

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
  /** One's own record comes through the local cache (spec §8, §9): the state its last read met. */
  recordState?: IdentityCacheState;
  setIdentity: (identity: IdentityUser) => void;
  setRecord: (record: UserRecord) => void;
  reload: () => void;
}

/**
 * One person's identity and record, read side by side. Each may fail on its own (a person without a record
 * yet still has an identity). One's own record (`self`) is read through the 7-day local cache, fresh after
 * a reload(); mount anew (`key`) for another person.
 */
export const usePerson = (id: string, { self = false } = {}): PersonState => {
  const users = useApi('users');
  const [identity, setIdentity] = useState<IdentityUser>();
  const [record, setRecord] = useState<UserRecord>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [recordError, setRecordError] = useState<string>();
  const [recordState, setRecordState] = useState<IdentityCacheState>();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let active = true;
    setLoading(true);
    setError(undefined);
    setRecordError(undefined);
    setRecordState(undefined);
    const readRecord = self
      ? identityCache()
          .user(id, { force: version > 0 })
          .then((read) => {
            if (active) setRecordState(read.state);
            return read.value;
          })
      : users.getUserRecord({ params: { id } });
    void Promise.allSettled([users.getUser({ params: { id } }), readRecord]).then(([who, what]) => {
      if (!active) return;
      if (who.status === 'fulfilled') setIdentity(who.value);
      else setError(errorMessage(who.reason));
      if (what.status === 'fulfilled') setRecord(what.value);
      else setRecordError(errorMessage(what.reason));
      setLoading(false);
    });
    return () => {
      active = false;
    };
  }, [users, id, self, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { identity, record, loading, error, recordError, recordState, setIdentity, setRecord, reload };
};
