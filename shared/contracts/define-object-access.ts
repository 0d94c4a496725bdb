import type { AnyRoute, Area, Routes } from './define-route';

/**
 * Object-level authorization, declared as data (docs/authorization.md): for every route that names an object (in its
 * path, its query or its body), what the object is and what its owner and a stranger of the route's own group get.
 * The authorization matrix (`test/integration/authz/authz-matrix.test.ts`) reads these declarations: a route declared
 * with an owner rule is called on an owned and on a foreign object and must answer exactly the declared statuses.
 *
 * Test-only data: only the unit coverage test and the matrix import `object-access.ts`, so no Lambda bundle carries it.
 */

/** What a route names. One word per kind of thing a person can own, be a member of or be refused. */
export type ObjectKind =
  | 'alert'
  | 'alert-rule'
  | 'api-key'
  | 'campaign'
  | 'cart'
  | 'credential'
  | 'customer'
  | 'delivery'
  | 'dataset'
  | 'device'
  | 'export'
  | 'group'
  | 'invite'
  | 'invoice'
  | 'live-watch'
  | 'notification'
  | 'organization'
  | 'parameter'
  | 'person'
  | 'price'
  | 'product'
  | 'realtime-identity'
  | 'relation'
  | 'release'
  | 'rollout'
  | 'signed-url-key'
  | 'subscription'
  | 'test-run'
  | 'webhook';

/** How a caller who may call the route but has no right to the object is refused. */
export type Refusal = 403 | 404;

/**
 * The object belongs to someone (an owner, members, an inviter): the owner gets the route's success status, a
 * stranger of the route's group one of `stranger`, and staff (spec §6: they act on every object) `staff`.
 */
export interface OwnerRule {
  kind: 'owner';
  object: ObjectKind;
  owner: 'success';
  /** The refusal a stranger gets; one status unless the answer depends on the object's state (say why in `note`). */
  stranger: readonly Refusal[];
  /** @default 'success' */
  staff: 'success' | readonly Refusal[];
  note?: string;
}

/**
 * The route answers everyone with success and leaves out what the caller may not see (a campaign's datasets): the
 * owner's answer lists the object's things, a stranger's lists none of them, staff's all of them.
 */
export interface FilteredRule {
  kind: 'filtered';
  object: ObjectKind;
  reason: string;
}

/** Only staff pass the route's group rule, and staff act on every object (spec §6): no stranger can reach it. */
export interface StaffWideRule {
  kind: 'staffWide';
  object: ObjectKind;
  reason: string;
}

/** Every object of its kind is open to every caller the group rule lets in (the product catalogue, a group's name). */
export interface PublicRule {
  kind: 'public';
  object: ObjectKind;
  reason: string;
}

/** What the path or body names is not an object anyone owns (a page size, a cursor, a search text). */
export interface NotAnObjectRule {
  kind: 'notAnObject';
  reason: string;
}

export type ObjectAccess = OwnerRule | FilteredRule | StaffWideRule | PublicRule | NotAnObjectRule;

// A part the route leaves out is inferred as `never` or `any` (depending on the compiler); both mean absent.
type IsAny<S> = 0 extends 1 & S ? true : false;
type HasParams<R extends AnyRoute> =
  IsAny<R['params']> extends true ? false : [NonNullable<R['params']>] extends [never] ? false : true;
type WithParams<R extends Routes> = { [K in keyof R]: HasParams<R[K]> extends true ? K : never }[keyof R];

/**
 * One declaration per route of an area: required (by the compiler) for every route with a path parameter, and for
 * routes naming an object in their query or body required by `object-access-coverage.test.ts`.
 */
export type ObjectAccessMap<R extends Routes = Routes> = { [K in WithParams<R>]: ObjectAccess } & {
  [K in Exclude<keyof R, WithParams<R>>]?: ObjectAccess;
};

/** Any area's declarations, read without their routes' types (the coverage test, the matrix). */
export type AnyObjectAccessMap = Partial<Record<string, ObjectAccess>>;

/** An area's object-access declarations (`defineObjectAccess<typeof devices>({ … })`), checked by the compiler. */
export const defineObjectAccess = <A extends Area>(
  declarations: ObjectAccessMap<A['routes']>,
): ObjectAccessMap<A['routes']> => declarations;

export const owner = (
  object: ObjectKind,
  stranger: Refusal | readonly Refusal[],
  options: { staff?: 'success' | Refusal | readonly Refusal[]; note?: string } = {},
): OwnerRule => ({
  kind: 'owner',
  object,
  owner: 'success',
  stranger: typeof stranger === 'number' ? [stranger] : stranger,
  staff:
    options.staff === undefined || options.staff === 'success'
      ? 'success'
      : typeof options.staff === 'number'
        ? [options.staff]
        : options.staff,
  ...(options.note ? { note: options.note } : {}),
});

export const filtered = (object: ObjectKind, reason: string): FilteredRule => ({ kind: 'filtered', object, reason });
export const staffWide = (object: ObjectKind, reason: string): StaffWideRule => ({ kind: 'staffWide', object, reason });
export const publicObject = (object: ObjectKind, reason: string): PublicRule => ({ kind: 'public', object, reason });
export const notAnObject = (reason: string): NotAnObjectRule => ({ kind: 'notAnObject', reason });
/** Whether the matrix calls the route on an owned and a foreign object. */
export const needsOwnedAndForeign = (declaration: ObjectAccess | undefined): declaration is OwnerRule | FilteredRule =>
  declaration?.kind === 'owner' || declaration?.kind === 'filtered';
