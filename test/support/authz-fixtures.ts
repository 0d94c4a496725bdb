import type { AreaName } from '../../shared/contracts/areas';
import { apiAs, tokenOf, uniqueId } from './stack';

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
}

const admin = async () => apiAs('system', await tokenOf('admin@example.com'));

const freshParameter = async () => {
  const id = uniqueId('authz');
  await (await admin()).createParameter({ body: { id, value: 'fixture' } });
  return id;
};

/** One fixture per route of every contract; the matrix fails for a route without one. */
export const FIXTURES: Partial<Record<AreaName, Record<string, RouteFixture>>> = {
  system: {
    listParameters: { prepare: async () => ({ query: { limit: 5 } }) },
    getParameter: { prepare: async () => ({ params: { id: await freshParameter() } }) },
    createParameter: { prepare: async () => ({ body: { id: uniqueId('authz-new'), value: 1 } }) },
    updateParameter: { prepare: async () => ({ params: { id: await freshParameter() }, body: { value: 2 } }) },
    deleteParameter: { prepare: async () => ({ params: { id: await freshParameter() } }) },
  },
};
