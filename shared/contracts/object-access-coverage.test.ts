import { AREA_NAMES, AREAS } from './areas';
import { isStaffOnly } from './define-audit';
import type { AnyObjectAccessMap } from './define-object-access';
import type { AnyRoute } from './define-route';
import { OBJECT_ACCESS } from './object-access';

/**
 * Object-level authorization's coverage (docs/authorization.md): every route that names an object says what it
 * names and who is refused it. The compiler already asks for every route with a path parameter; this test also asks
 * for routes naming an object in their query or body (a field called `id`, `ids`, `key`, `target` or ending in `Id`,
 * `Ids` or `Key`, at any depth of plain objects).
 */
const routes = AREA_NAMES.flatMap((area) =>
  Object.entries(AREAS[area].routes as Record<string, AnyRoute>).map(([name, route]) => ({
    area,
    name,
    route,
    declaration: (OBJECT_ACCESS[area] as AnyObjectAccessMap)[name],
  })),
);

const OBJECT_FIELD = /^(id|ids|key|target)$|(Id|Ids|Key)$/;

interface Shaped {
  shape?: Record<string, unknown>;
  unwrap?: () => unknown;
}

/** The object-naming fields of a schema, as dotted paths. */
const objectFields = (schema: unknown, depth = 0): string[] => {
  const shaped = schema as Shaped | undefined;
  const shape =
    shaped?.shape ??
    (typeof shaped?.unwrap === 'function' ? (shaped.unwrap() as Shaped | undefined)?.shape : undefined);
  if (!shape || depth > 3) return [];
  return Object.entries(shape).flatMap(([key, value]) => [
    ...(OBJECT_FIELD.test(key) ? [key] : []),
    ...objectFields(value, depth + 1).map((inner) => `${key}.${inner}`),
  ]);
};

const namesAnObject = (route: AnyRoute): boolean =>
  /\{[^}]+\}/.test(route.path) || objectFields(route.query).length > 0 || objectFields(route.body).length > 0;

describe('object-access declarations', () => {
  it('cover every area of the contracts', () => {
    expect(Object.keys(OBJECT_ACCESS).sort()).toEqual([...AREA_NAMES].sort());
  });

  it('declare every route that names an object in its path, query or body', () => {
    const undeclared = routes
      .filter(({ route, declaration }) => declaration === undefined && namesAnObject(route))
      .map(({ area, name, route }) => `${area}.${name} (${route.method} ${route.path})`);
    expect(undeclared).toEqual([]);
  });

  it('name only routes their area has', () => {
    const strays = AREA_NAMES.flatMap((area) =>
      Object.keys(OBJECT_ACCESS[area])
        .filter((name) => !(name in AREAS[area].routes))
        .map((name) => `${area}.${name}`),
    );
    expect(strays).toEqual([]);
  });

  it('say staff-wide only of staff-only routes, and ask an owner rule only of routes more than staff may call', () => {
    const wrong = routes
      .filter(({ route, declaration }) =>
        declaration?.kind === 'staffWide' ? !isStaffOnly(route) : declaration?.kind === 'owner' && isStaffOnly(route),
      )
      .map(({ area, name }) => `${area}.${name}`);
    expect(wrong).toEqual([]);
  });

  it('refuse a stranger with a 403 or a 404 and give a reason for every route without an owner', () => {
    for (const { area, name, declaration } of routes) {
      if (!declaration) continue;
      if (declaration.kind === 'owner') {
        expect([`${area}.${name}`, declaration.stranger.length > 0]).toEqual([`${area}.${name}`, true]);
        for (const status of [...declaration.stranger, ...(declaration.staff === 'success' ? [] : declaration.staff)]) {
          expect([403, 404]).toContain(status);
        }
      } else {
        expect([`${area}.${name}`, declaration.reason.length > 5]).toEqual([`${area}.${name}`, true]);
      }
    }
  });
});
