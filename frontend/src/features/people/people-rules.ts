import { GROUP_NAMES, type GroupName, hasRole } from '../../../../shared/auth/groups';
import type { IdentityUser, UserRecord } from '../../../../shared/contracts/users';

/**
 * Pure rules of the people screens: which groups a staff member may offer, the state of a queued deletion, and
 * which people query a search form stands for (how a person is named, every feature's concern, is
 * lib/person-name.ts). No React, so the unit tests run them in node.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec §4, §9: a queued deletion happens within 2 to 4 weeks. */
export const DELETION_WINDOW_DAYS = { earliest: 14, latest: 28 } as const;

/**
 * The groups a staff member may grant or remove: Administrators any, Employees all but the staff groups
 * (the API refuses the rest with its own message; not offering them saves the refusal).
 */
export const groupsOffered = (actorGroups: readonly string[]): GroupName[] => {
  if (hasRole(actorGroups, 'Administrators')) return [...GROUP_NAMES];
  if (hasRole(actorGroups, 'Employees')) return GROUP_NAMES.filter((g) => g !== 'Administrators' && g !== 'Employees');
  return [];
};

/** What the group controls show for one person: groups to add, and which of theirs the actor may remove. */
export const groupChoices = (actorGroups: readonly string[], personGroups: readonly string[]) => {
  const offered = groupsOffered(actorGroups);
  return {
    addable: offered.filter((g) => !personGroups.includes(g)),
    removable: new Set<string>(offered.filter((g) => personGroups.includes(g))),
  };
};

export interface DeletionState {
  queued: boolean;
  time?: number;
  selfRequested?: boolean;
  requester?: string;
  /** When the deletion may happen at the earliest and at the latest. */
  window?: { from: number; to: number };
  history: NonNullable<NonNullable<UserRecord['metadata']>['deletionQueued']>['history'];
}

/** A record's deletion queue as the screens show it: queued when it holds a time. */
export const deletionState = (record: Pick<UserRecord, 'metadata'> | undefined): DeletionState => {
  const queue = record?.metadata?.deletionQueued;
  const time = queue?.time;
  return {
    queued: time !== undefined,
    time,
    selfRequested: queue?.selfRequested,
    requester: queue?.requester,
    window:
      time === undefined
        ? undefined
        : { from: time + DELETION_WINDOW_DAYS.earliest * DAY_MS, to: time + DELETION_WINDOW_DAYS.latest * DAY_MS },
    history: queue?.history ?? [],
  };
};

/** The person search form of `/admin/people`, as it is kept in the address (so a search can be shared). */
export interface PeopleSearch {
  email?: string;
  first?: string;
  last?: string;
  group?: string;
}

export type PeopleQuery =
  | { kind: 'all'; search?: string }
  | { kind: 'name'; first: string; last: string }
  | { kind: 'group'; group: GroupName };

/**
 * Which list the form asks for: a group when one is chosen, else a name filter when a first or last name
 * is typed (an empty side matches anyone: "*"), else everyone, by e-mail prefix when one is typed.
 */
export const peopleQuery = (form: PeopleSearch): PeopleQuery => {
  const group = form.group?.trim();
  if (group && (GROUP_NAMES as string[]).includes(group)) return { kind: 'group', group: group as GroupName };
  const first = form.first?.trim() ?? '';
  const last = form.last?.trim() ?? '';
  if (first || last) return { kind: 'name', first: first || '*', last: last || '*' };
  const search = form.email?.trim().toLowerCase();
  return search ? { kind: 'all', search } : { kind: 'all' };
};

/** The form's values from the address's query, and back: only the fields that are set. */
export const searchFromParams = (params: URLSearchParams): PeopleSearch => {
  const read = (key: keyof PeopleSearch) => params.get(key)?.trim() || undefined;
  return { email: read('email'), first: read('first'), last: read('last'), group: read('group') };
};

export const searchToParams = (search: PeopleSearch): Record<string, string> =>
  Object.fromEntries(
    Object.entries(search)
      .map(([key, value]) => [key, value?.trim() ?? ''] as const)
      .filter(([, value]) => value),
  );

/** The identity provider's status in words. */
export const STATUS_TEXT: Record<IdentityUser['status'], string> = {
  UNCONFIRMED: 'Not confirmed',
  CONFIRMED: 'Confirmed',
  ARCHIVED: 'Archived',
  COMPROMISED: 'Compromised',
  UNKNOWN: 'Unknown',
  RESET_REQUIRED: 'Password reset required',
  FORCE_CHANGE_PASSWORD: 'Must change password',
  EXTERNAL_PROVIDER: 'External provider',
};

/** The typed confirmation of "delete now": the person's e-mail (or id when they have none), exactly. */
export const deleteNowPhrase = (person: { id: string; email?: string }): string => person.email ?? person.id;

export const confirmsDeleteNow = (typed: string, person: { id: string; email?: string }): boolean =>
  typed.trim() === deleteNowPhrase(person);
