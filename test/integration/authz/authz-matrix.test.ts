import { hasRole, isStaff } from '../../../shared/auth/groups';
import { AREAS, type AreaName } from '../../../shared/contracts/areas';
import { ApiError, callRoute } from '../../../shared/contracts/client';
import { type AnyObjectAccessMap, needsOwnedAndForeign } from '../../../shared/contracts/define-object-access';
import { type AnyRoute, successStatus } from '../../../shared/contracts/define-route';
import { OBJECT_ACCESS } from '../../../shared/contracts/object-access';
import { CALLERS, type CallerName, type FixtureContext, type RouteFixture } from '../../support/authz-fixture-types';
import { FIXTURES } from '../../support/authz-fixtures';
import { freshUser } from '../../support/people';
import { areaUrl, tokenOf } from '../../support/stack';

/**
 * The authorization matrix: every route of every contract, called through the local gateway as a guest,
 * as each group's demo account and with a forged token, expecting exactly the status the route's access
 * rule implies. A route added to a contract without a fixture fails here. Every route declared with an owner rule in
 * `shared/contracts/object-access.ts` is also called on an owned and a foreign object and must answer exactly the
 * declared statuses (docs/authorization.md).
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

/** The status of one call, and its answer when it succeeds. */
const answerOf = async (
  area: AreaName,
  route: AnyRoute,
  request: object,
  token: string | undefined,
  headers?: Record<string, string>,
): Promise<{ status: number; body?: unknown }> => {
  try {
    const body = await callRoute(route, request as never, { baseUrl: areaUrl(area), getToken: () => token, headers });
    return { status: successStatus(route), body };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status };
    throw error;
  }
};

const statusOf = async (...args: Parameters<typeof answerOf>) => (await answerOf(...args)).status;

/** The items of a list answer (`{ items }`, one other list field such as `{ people }`, or a bare array). */
const itemsOf = (body: unknown): unknown[] => {
  if (Array.isArray(body)) return body;
  const lists = Object.values((body ?? {}) as Record<string, unknown>).filter(Array.isArray);
  const items = (body as { items?: unknown } | undefined)?.items ?? (lists.length === 1 ? lists[0] : undefined);
  if (!Array.isArray(items)) throw new Error('a `filtered` route answers a list: `{ items }` or an array');
  return items;
};

const declarationOf = (area: AreaName, name: string) => (OBJECT_ACCESS[area] as AnyObjectAccessMap)[name];

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

  it('calls every route declared with an owner rule on an owned and a foreign object, and only those', () => {
    const mismatched = routes
      .filter(({ area, name }) => {
        const fixture = FIXTURES[area]?.[name];
        return needsOwnedAndForeign(declarationOf(area, name)) !== Boolean(fixture?.owned && fixture.foreign);
      })
      .map(({ area, name }) => `${area}.${name}: ${declarationOf(area, name)?.kind ?? 'undeclared'}`);
    expect(mismatched).toEqual([]);
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

      const declaration = declarationOf(area, name);
      if (declaration && needsOwnedAndForeign(declaration) && FIXTURES[area]?.[name]?.owned) {
        /** What the declaration expects of a call on a foreign object by a caller of `groups`. */
        const expectForeign = (answer: { status: number; body?: unknown }, staff: boolean) => {
          if (declaration.kind === 'filtered') {
            expect(answer.status).toBe(successStatus(route));
            // Staff read every object (spec §6): their list holds the foreign object's things too.
            if (staff) expect(itemsOf(answer.body).length).toBeGreaterThan(0);
            else expect(itemsOf(answer.body)).toEqual([]);
          } else if (staff && declaration.staff === 'success') {
            expect(answer.status).toBe(successStatus(route));
          } else {
            expect(staff && declaration.staff !== 'success' ? declaration.staff : declaration.stranger).toContain(
              answer.status,
            );
          }
        };
        const expectOwned = (answer: { status: number; body?: unknown }) => {
          expect(answer.status).toBe(successStatus(route));
          if (declaration.kind === 'filtered') expect(itemsOf(answer.body).length).toBeGreaterThan(0);
        };

        if (takesCredential(route)) {
          it('with its credential on an owned and a foreign object', async () => {
            const { token, headers } = await fixture().credential!();
            const call = async (make: (context: FixtureContext) => Promise<object>) =>
              answerOf(area, route, await make({ caller: 'user' }), token, headers);
            expectOwned(await call(fixture().owned!));
            expectForeign(await call(fixture().foreign!), false);
          });
        }

        // Callers the route's role rule lets through; the others were proven refused above.
        const allowed = (Object.keys(CALLERS) as Exclude<CallerName, 'guest'>[]).filter(
          (c) => expectedStatus(route, c) < 400,
        );
        // A credential route lets no person's token through: it was called with its credential above.
        if (allowed.length > 0)
          it.each(allowed)('on an owned and a foreign object as %s', async (caller) => {
            // Each request with its own caller: a twin signed out by the first cannot make the second.
            const call = async (make: (context: FixtureContext) => Promise<object>) => {
              const { token, context } = await callerFor(fixture(), caller);
              return answerOf(area, route, await make(context), token);
            };
            expectOwned(await call(fixture().owned!));
            // Staff act on every object (spec §6) unless the declaration says otherwise.
            expectForeign(await call(fixture().foreign!), isStaff(CALLERS[caller].groups));
          });
      }
    },
  );
});

/**
 * What the matrix's fixtures leave behind is read back by every demo account's own lists: a fixture that wrote a
 * record the areas never would (a device without a name) made the administrator's device list answer 500.
 */
describe('after the matrix, every demo account reads its own lists', () => {
  const lists: [AreaName, string, object][] = [
    ['devices', 'listMine', { query: { limit: 100 } }],
    ['devices', 'map', { query: { limit: 100, scope: 'mine' } }],
    ['organizations', 'listMine', { query: { limit: 100 } }],
    ['campaigns', 'listMine', { query: { limit: 100 } }],
  ];
  it.each(Object.keys(CALLERS) as Exclude<CallerName, 'guest'>[])('as %s', async (caller) => {
    const token = await tokenOf(CALLERS[caller].email as never);
    for (const [area, name, request] of lists) {
      const route = (AREAS[area].routes as Record<string, AnyRoute>)[name]!;
      expect([`${area}.${name}`, await statusOf(area, route, request, token)]).toEqual([
        `${area}.${name}`,
        expectedStatus(route, caller),
      ]);
    }
  });
});
