import { useQueries } from '@tanstack/react-query';
import { MAX_NAMED_OBJECTS, type NamedKind } from '../../../shared/contracts/relations';
import { routeQuery } from './query';

export interface NamedObjectRef {
  kind: NamedKind;
  id: string;
}

/** The key of one object in the map {@link useObjectNames} answers. */
export const nameKey = (kind: NamedKind, id: string) => `${kind}#${id}`;

/** A name changes rarely: read again after five minutes, not every minute as lists are. */
const NAMES_STALE_MS = 5 * 60_000;

/**
 * The names of the devices, organizations and campaigns a screen shows by id (POST /relations/names): one read per
 * hundred objects, whatever the number of rows. `within`: the organization or campaign whose device list is shown,
 * so its members see the names of its devices (docs/relations.md, "Names"). Objects the person may not see keep
 * their id only.
 */
export const useObjectNames = (
  objects: readonly NamedObjectRef[],
  within?: { kind: 'organization' | 'campaign'; id: string },
): ReadonlyMap<string, string> => {
  const unique = [...new Map(objects.map((o) => [nameKey(o.kind, o.id), o])).values()].sort((a, b) =>
    nameKey(a.kind, a.id).localeCompare(nameKey(b.kind, b.id)),
  );
  const chunks: NamedObjectRef[][] = [];
  for (let start = 0; start < unique.length; start += MAX_NAMED_OBJECTS) {
    chunks.push(unique.slice(start, start + MAX_NAMED_OBJECTS));
  }
  const results = useQueries({
    queries: chunks.map((chunk) => ({
      ...routeQuery('relations', 'names', { body: { objects: chunk, ...(within ? { within } : {}) } }),
      staleTime: NAMES_STALE_MS,
      refetchInterval: false as const,
    })),
  });
  const names = new Map<string, string>();
  for (const result of results) {
    for (const item of result.data?.items ?? []) names.set(nameKey(item.kind, item.id), item.name);
  }
  return names;
};
