import { useCallback, useEffect, useState } from 'react';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common';
import { type GuardedKind, type RelationType, typesWithReferrer } from '../../../../shared/relations/relation-types';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';

export interface MyRoles {
  /** The caller's relation types on the object; empty until known (so no control shows early). */
  roles: RelationType[];
  error?: string;
  /** After a change to the caller's own relation: their rights on the object may have changed. */
  reload: () => void;
}

/**
 * The caller's roles on one object: the relations between it and the caller (a handful at most, so one
 * page). Staff pass every rule without roles, so their roles are not fetched. Roles are kept while a
 * reload runs, so controls do not flicker; mount anew (`key`) for another object.
 */
export const useMyRoles = (kind: GuardedKind, objectId: string, callerId: string, staff: boolean): MyRoles => {
  const relations = useApi('relations');
  const [roles, setRoles] = useState<RelationType[]>([]);
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `version` (reload()) is a reason to fetch again
  useEffect(() => {
    let active = true;
    setError(undefined);
    if (staff || !callerId || !objectId) return;
    relations
      .listByParameters({
        body: {
          parameters: [{ typeName: 'referrer', id: objectId, typeArray: typesWithReferrer(kind), otherId: callerId }],
          limit: MAX_PAGE_SIZE,
        },
      })
      .then(
        (page) => active && setRoles(page.items.map((relation) => relation.type)),
        (failure: unknown) => active && setError(errorMessage(failure)),
      );
    return () => {
      active = false;
    };
  }, [relations, kind, objectId, callerId, staff, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { roles, error, reload };
};
