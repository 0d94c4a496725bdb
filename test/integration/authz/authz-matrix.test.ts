import { hasRole, isStaff } from '../../../shared/auth/groups';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { ApiError, callRoute } from '../../../shared/contracts/client';
import { type AnyRoute, successStatus } from '../../../shared/contracts/define-route';
import {
  CALLERS,
  type CallerName,
  FIXTURES,
  type FixtureContext,
  type RouteFixture,
} from '../../support/authz-fixtures';
import { freshUser } from '../../support/people';
import { areaUrl, tokenOf } from '../../support/stack';

/**
 * The authorization matrix: every route of every contract, called through the local gateway as a guest,
 * as each group's demo account and with a forged token, expecting exactly the status the route's access
 * rule implies. A route added to a contract without a fixture fails here.
 */

const callerNames = ['guest', ...Object.keys(CALLERS)] as CallerName[];

const expectedStatus = (route: AnyRoute, caller: CallerName): number => {
  if (route.access.kind === 'guest') return successStatus(route);
  if (caller === 'guest') return 401;
  if (route.access.kind === 'group' && !hasRole(CALLERS[caller].groups, route.access.group)) return 403;
  return successStatus(route);
};

const statusOf = async (area: AreaName, route: AnyRoute, request: object, token: string | undefined) => {
  try {
    await callRoute(route, request as never, { baseUrl: areaUrl(area), getToken: () => token });
    return successStatus(route);
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
};

/**
 * The token a caller uses for one request, and the context its fixture prepares it in: the demo account's, or for a
 * fixture with `twin`, a fresh account's with the same groups (so a call that signs the caller out or renames them
 * never touches a demo account).
 */
const callerFor = async (
  fixture: RouteFixture,
  caller: CallerName,
): Promise<{ token: string | undefined; context: FixtureContext }> => {
  if (caller === 'guest') return { token: undefined, context: { caller } };
  if (!fixture.twin) return { token: await tokenOf(CALLERS[caller].email as never), context: { caller } };
  const twin = await freshUser({ prefix: `twin-${caller}`, groups: CALLERS[caller].groups as never });
  return { token: twin.token, context: { caller, self: twin } };
};

const routes = Object.entries(AREAS).flatMap(([area, definition]) =>
  Object.entries(definition.routes).map(([name, route]) => ({
    area: area as AreaName,
    name,
    route: route as AnyRoute,
  })),
);

describe('authorization matrix', () => {
  it('has a fixture for every route of every contract', () => {
    const missing = routes
      .filter(({ area, name }) => !FIXTURES[area]?.[name])
      .map(({ area, name }) => `${area}.${name}`);
    expect(missing).toEqual([]);
  });

  describe.each(routes.map((r) => [`${r.area}.${r.name} ${r.route.method} ${r.route.path}`, r] as const))(
    '%s',
    (_label, { area, name, route }) => {
      const fixture = (): RouteFixture => FIXTURES[area]![name]!;

      it.each(callerNames)('as %s', async (caller) => {
        const { token, context } = await callerFor(fixture(), caller);
        const request = await fixture().prepare(context);
        expect(await statusOf(area, route, request, token)).toBe(expectedStatus(route, caller));
      });

      it('with a forged token: 401', async () => {
        const [header, payload] = (await tokenOf('admin@example.com')).split('.');
        const request = await fixture().prepare({ caller: 'admin' });
        expect(await statusOf(area, route, request, `${header}.${payload}.forged`)).toBe(401);
      });

      if (FIXTURES[area]?.[name]?.owned) {
        // Callers the route's role rule lets through; the others were proven refused above.
        it.each((Object.keys(CALLERS) as Exclude<CallerName, 'guest'>[]).filter((c) => expectedStatus(route, c) < 400))(
          'on an owned and a foreign object as %s',
          async (caller) => {
            // Each request with its own caller: a twin signed out by the first cannot make the second.
            const call = async (make: (context: FixtureContext) => Promise<object>) => {
              const { token, context } = await callerFor(fixture(), caller);
              return statusOf(area, route, await make(context), token);
            };
            expect(await call(fixture().owned!)).toBe(successStatus(route));
            // Staff may act on every object (spec §6); anyone else is refused another's object.
            if (isStaff(CALLERS[caller].groups)) {
              expect(await call(fixture().foreign!)).toBe(successStatus(route));
            } else {
              expect([403, 404]).toContain(await call(fixture().foreign!));
            }
          },
        );
      }
    },
  );
});
