import { useEffect, useState } from 'react';
import { GROUP_NAMES } from '../../../../shared/auth/groups';
import type { Group } from '../../../../shared/contracts/users';
import { errorMessage } from '../../lib/error-message';
import { GROUPS_CACHE_ERROR, type IdentityCacheState, identityCache } from '../../lib/identity-cache';

export interface GroupList {
  /** Every group, highest role first; the built-in list until (or unless) the cached one arrives. */
  groups: Group[];
  /** 'Error fetching groups' when neither the cache nor the API had them. */
  error?: string;
  state?: IdentityCacheState;
}

const BUILT_IN: Group[] = GROUP_NAMES.map((GroupName, i) => ({ GroupName, Precedence: i + 1 }));

/** The group list through the 7-day local cache (spec §8, §9), with the state its read met. */
export const useGroupList = (): GroupList => {
  const [list, setList] = useState<GroupList>({ groups: BUILT_IN });
  useEffect(() => {
    let active = true;
    identityCache()
      .groups()
      .then(
        (read) =>
          active &&
          setList({
            groups: [...read.value].sort((a, b) => a.Precedence - b.Precedence),
            state: read.state,
            // A stale copy is still shown when a refresh failed; the spec's words say so.
            error: read.state === 'localGroupsCacheError' ? GROUPS_CACHE_ERROR : undefined,
          }),
        (failure: unknown) => active && setList({ groups: BUILT_IN, error: errorMessage(failure) }),
      );
    return () => {
      active = false;
    };
  }, []);
  return list;
};
