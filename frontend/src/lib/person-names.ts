import { type QueryKey, useQuery } from '@tanstack/react-query';
import { PEOPLE_NAMES_MAX, type PersonName } from '../../../shared/contracts/users';
import { apiClient } from './api';
import { routeKey } from './query';
import { useOptionalUser } from './session';

/**
 * People's names as the signed-in person may see them (docs/users.md "Names and e-mails"). Every name on a screen
 * is its own query, cached by person id, but the reads of one render are gathered into one `POST
 * /users/people/names` (up to its 100 ids a request): a list of fifty members costs one request, and a name read
 * once is not asked again on the next screen.
 */

/** What the API answered for one id: the person, or null when the viewer may not see them (or nobody has the id). */
export type KnownName = PersonName | null;

/** The key of one person's name: under the route's key, so invalidating the route reads every name again. */
export const personNameKey = (id: string): QueryKey => [...routeKey('users', 'peopleNames'), id];

/** A name once read is good for a while; "not visible" is asked again soon (they may join a shared object). */
const NAME_STALE_MS = 5 * 60_000;
const UNSEEN_STALE_MS = 10_000;

type Waiter = { resolve: (name: KnownName) => void; reject: (error: unknown) => void };
let waiting = new Map<string, Waiter[]>();
let scheduled = false;

const flush = async () => {
  scheduled = false;
  const batch = waiting;
  waiting = new Map();
  const ids = [...batch.keys()];
  for (let start = 0; start < ids.length; start += PEOPLE_NAMES_MAX) {
    const chunk = ids.slice(start, start + PEOPLE_NAMES_MAX);
    try {
      const { people } = await apiClient('users').peopleNames({ body: { ids: chunk } });
      const found = new Map(people.map((person) => [person.id, person]));
      for (const id of chunk) for (const waiter of batch.get(id) ?? []) waiter.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const id of chunk) for (const waiter of batch.get(id) ?? []) waiter.reject(error);
    }
  }
};

/** One id's name, asked together with every other id asked in the same turn of the event loop. */
const loadName = (id: string) =>
  new Promise<KnownName>((resolve, reject) => {
    waiting.set(id, [...(waiting.get(id) ?? []), { resolve, reject }]);
    if (!scheduled) {
      scheduled = true;
      setTimeout(() => void flush(), 0);
    }
  });

const nameQuery = (id: string) => ({
  queryKey: personNameKey(id),
  queryFn: () => loadName(id),
  staleTime: (query: { state: { data?: KnownName } }) => (query.state.data ? NAME_STALE_MS : UNSEEN_STALE_MS),
  // Names change rarely; a screen's own lists refetch on their schedule and ask for new ids then.
  refetchInterval: false as const,
  refetchOnWindowFocus: false,
});

/** One person's name (undefined while loading). */
export const usePersonName = (id: string | undefined) => {
  // A guest may see no one's name (the route is for people signed in): a guest's page asks nothing it would refuse.
  const signedIn = Boolean(useOptionalUser());
  const asking = Boolean(id) && signedIn;
  const query = useQuery({ ...nameQuery(id ?? ''), enabled: asking });
  return { name: query.data, loading: query.isPending && asking };
};

/**
 * A short label for a person, never their id: their name, else their e-mail, else a neutral word (`unseen`, for a
 * person the viewer may not see).
 */
export const personLabel = (name: KnownName | undefined, loading = false, unseen = 'Someone'): string =>
  name?.name ?? name?.email ?? (loading ? 'Loading…' : name ? 'Unnamed person' : unseen);
