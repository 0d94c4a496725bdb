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

/** Device-credential and API-key routes take no person's token: every person and guest is 401 there. */
const takesCredential = (route: AnyRoute): boolean => route.access.kind === 'device' || route.access.kind === 'apiKey';

const expectedStatus = (route: AnyRoute, caller: CallerName): number => {
  if (takesCredential(route)) return 401;
  if (route.access.kind === 'guest') return successStatus(route);
  if (caller === 'guest') return 401;
  if (route.access.kind === 'group' && !hasRole(CALLERS[caller].groups, route.access.group)) return 403;
  return successStatus(route);
};

const statusOf = async (
  area: AreaName,
  route: AnyRoute,
  request: object,
  token: string | undefined,
  headers?: Record<string, string>,
) => {
  try {
    await callRoute(route, request as never, { baseUrl: areaUrl(area), getToken: () => token, headers });
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
        expect(await statusOf(area, route, request, token, fixture().headersFor?.(request))).toBe(
          expectedStatus(route, caller),
        );
      });

      if (takesCredential(route)) {
        it('with its own credential, and with a forged one: 401', async () => {
          const make = fixture().credential;
          if (!make) throw new Error(`${area}.${name} takes a ${route.access.kind} credential: its fixture needs one`);
          const request = await fixture().prepare({ caller: 'user' });
          const { token, headers } = await make();
          expect(await statusOf(area, route, request, token, headers)).toBe(successStatus(route));
          const forged = (value: string | undefined) => (value ? `${value.slice(0, -4)}AAAA` : value);
          expect(
            await statusOf(
              area,
              route,
              request,
              forged(token),
              headers && Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, forged(v)!])),
            ),
          ).toBe(401);
        });
      }

      it('with a forged token: 401', async () => {
        const [header, payload] = (await tokenOf('admin@example.com')).split('.');
        const request = await fixture().prepare({ caller: 'admin' });
        expect(
          await statusOf(area, route, request, `${header}.${payload}.forged`, fixture().headersFor?.(request)),
        ).toBe(401);
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
