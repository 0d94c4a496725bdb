/**
 * The vocabulary of the authorization matrix's fixtures, apart from the fixtures themselves: each area's fixture
 * file imports it, and `authz-fixtures.ts` imports each area's file, so keeping both in one module made a cycle.
 */
/** Who calls: a guest, or one of the demo accounts (one per group, one without a group). */
export type CallerName = 'guest' | 'admin' | 'employee' | 'distributor' | 'approved' | 'user' | 'none' | 'nogroup';

export const CALLERS: Record<Exclude<CallerName, 'guest'>, { email: string; groups: string[] }> = {
  admin: { email: 'admin@example.com', groups: ['Administrators'] },
  employee: { email: 'employee@example.com', groups: ['Employees'] },
  distributor: { email: 'distributor@example.com', groups: ['Distributors'] },
  approved: { email: 'approved@example.com', groups: ['Approved_users'] },
  user: { email: 'user@example.com', groups: ['Authenticated_users'] },
  none: { email: 'none@example.com', groups: ['None'] },
  nogroup: { email: 'nogroup@example.com', groups: [] },
};

export interface FixtureContext {
  caller: CallerName;
  /** With `twin`: the fresh account, holding the caller's groups, whose token makes this call. */
  self?: { id: string; email: string; token: string };
}

/**
 * How to call one route for the matrix: `prepare` returns a fresh, valid request (creating whatever the
 * call needs), so every allowed caller gets the route's success status. Routes whose access depends on
 * owning the object add `owned` and `foreign`: a request on an object the caller owns, and one it does not.
 */
export interface FixtureRequest {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface RouteFixture {
  prepare: (context: FixtureContext) => Promise<FixtureRequest>;
  owned?: (context: FixtureContext) => Promise<FixtureRequest>;
  foreign?: (context: FixtureContext) => Promise<FixtureRequest>;
  /**
   * The call changes the caller themself (signs them out everywhere, renames them): the matrix makes it with a
   * fresh "twin" account holding the caller's groups instead of the demo account, whose tokens are cached.
   */
  twin?: boolean;
  /**
   * Device-credential and API-key routes: a credential that lets the request through (`token` is sent as
   * `Authorization: Bearer …`, `headers` as they are). Every person's token is refused there.
   */
  credential?: () => Promise<{ token?: string; headers?: Record<string, string> }>;
  /** Headers the request itself needs whoever sends it (a webhook's signature over its body). */
  headersFor?: (request: FixtureRequest) => Record<string, string>;
}

/**
 * A route on one object the fixture makes (`make` answers its id): the caller's own for `prepare` and `owned`, another
 * account's for `foreign`.
 */
export const onOwnedOrForeign = (
  make: (caller: CallerName, whose: 'owned' | 'foreign') => Promise<string>,
  request: (id: string) => FixtureRequest,
): RouteFixture => ({
  prepare: async ({ caller }) => request(await make(caller, 'owned')),
  owned: async ({ caller }) => request(await make(caller, 'owned')),
  foreign: async ({ caller }) => request(await make(caller, 'foreign')),
});
