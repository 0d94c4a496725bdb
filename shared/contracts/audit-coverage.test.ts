import { AUDIT_ACTION_PATTERN, AUDIT_TARGET_KIND_PATTERN } from '../audit/audit-entry';
import { AREA_NAMES, AREAS } from './areas';
import { AUDIT_ACTIONS, AUDITS } from './audits';
import { type AnyAuditMap, isAudited, isStaffOnly } from './define-audit';
import type { AnyRoute } from './define-route';

/**
 * The audit log's coverage (docs/audit.md): every route that can change something, and every staff-only route, says
 * whether its calls are staff actions. A route added without a declaration fails here, so whoever adds it (or merges
 * it) decides, next to the route, what the audit log records of it.
 */
const routes = AREA_NAMES.flatMap((area) =>
  Object.entries(AREAS[area].routes as Record<string, AnyRoute>).map(([name, route]) => ({
    area,
    name,
    route,
    declaration: (AUDITS[area] as AnyAuditMap)[name],
  })),
);

/** The spec's GET paths that change something (`/disableUser/{id}`, `/migrate/`): a verb first. */
const CHANGING_GET =
  /^\/(add|remove|delete|disable|enable|reset|force|admin(?!List)|backup|migrate|new|update|set|send|run|cancel|resume)/i;

describe('audit declarations', () => {
  it('cover every area of the contracts', () => {
    expect(Object.keys(AUDITS).sort()).toEqual([...AREA_NAMES].sort());
  });

  it('declare every route that changes something (any method but GET, or a GET spelled as a verb) and every staff-only route', () => {
    const undeclared = routes
      .filter(
        ({ route, declaration }) =>
          declaration === undefined && (route.method !== 'GET' || CHANGING_GET.test(route.path) || isStaffOnly(route)),
      )
      .map(({ area, name, route }) => `${area}.${name} (${route.method} ${route.path})`);
    expect(undeclared).toEqual([]);
  });

  it('name only routes their area has', () => {
    const strays = AREA_NAMES.flatMap((area) =>
      Object.keys(AUDITS[area])
        .filter((name) => !(name in AREAS[area].routes))
        .map((name) => `${area}.${name}`),
    );
    expect(strays).toEqual([]);
  });

  it('give each action one route and a name and words a person can read', () => {
    const names = AUDIT_ACTIONS.map(({ action }) => action);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    for (const { action, label } of AUDIT_ACTIONS) {
      expect([action, AUDIT_ACTION_PATTERN.test(action)]).toEqual([action, true]);
      expect(label.length).toBeGreaterThan(5);
    }
    for (const { declaration } of routes) {
      if (isAudited(declaration)) expect(AUDIT_TARGET_KIND_PATTERN.test(declaration.target.kind)).toBe(true);
    }
  });

  it('give a reason for every route left out', () => {
    for (const { area, name, declaration } of routes) {
      if (declaration && !isAudited(declaration)) {
        expect([`${area}.${name}`, declaration.notAudited.length > 5]).toEqual([`${area}.${name}`, true]);
      }
    }
  });

  it("audit every staff-only route that changes something, including the issue's staff actions", () => {
    const audited = new Set(
      routes.filter(({ declaration }) => isAudited(declaration)).map((r) => `${r.area}.${r.name}`),
    );
    for (const required of [
      'users.addUserToGroup',
      'users.removeUserFromGroup',
      'users.disableUser',
      'users.enableUser',
      'users.adminResetUserPassword',
      'users.forceResetPassword',
      'users.adminUserGlobalSignOut',
      'users.deleteUser',
      'users.updateUserRecord',
      'users.adminDeleteUser',
      'users.updateUser',
      'users.inviteUser',
      'system.createParameter',
      'system.updateParameter',
      'system.deleteParameter',
      'system.putTierFeatures',
      'relations.create',
      'relations.update',
      'relations.delete',
      'devices.register',
      'devices.transfer',
      'devices.retire',
      'notifications.createNotification',
      'notifications.queueNotification',
      'notifications.deleteNotification',
      'migrate.runMigrations',
      'api.subscriptionsChangeTier',
      'api.subscriptionsCancel',
    ]) {
      expect([required, audited.has(required)]).toEqual([required, true]);
    }
  });

  it('leave no route in any contract that changes or removes an audit entry: the audit routes only read, for Administrators', () => {
    const onTheLog = routes.filter(({ route }) => /audit/i.test(route.path));
    expect(onTheLog.map(({ area, name, route }) => `${area}.${name} ${route.method} ${route.path}`)).toEqual([
      'system.searchAudit POST /audit',
      'system.listAuditActions GET /audit/actions',
    ]);
    for (const { route } of onTheLog) expect(route.access).toEqual({ kind: 'group', group: 'Administrators' });
  });
});
