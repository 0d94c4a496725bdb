import { alertsAudit } from './audit/alerts';
import { apiAudit } from './audit/api';
import { campaignsAudit } from './audit/campaigns';
import { codeReleasesAudit } from './audit/code-releases';
import { customerAudit } from './audit/customer';
import { dataIngressAudit } from './audit/data-ingress';
import { datasetsAudit } from './audit/datasets';
import { devicesAudit } from './audit/devices';
import { integrationsAudit } from './audit/integrations';
import { migrateAudit } from './audit/migrate';
import { notificationsAudit } from './audit/notifications';
import { organizationsAudit } from './audit/organizations';
import { relationsAudit } from './audit/relations';
import { sensorDataAudit } from './audit/sensor-data';
import { systemAudit } from './audit/system';
import { usersAudit } from './audit/users';
import type { AnyAuditMap } from './define-audit';

/**
 * Every area's audit declarations (docs/audit.md), as AREAS lists the areas: `audit-coverage.test.ts` walks both,
 * and the audit page lists the actions from here. The declarations (`audit/{area}.ts`) name their area as a type
 * only, so listing them does not bundle every area's routes into the system area's Lambda; an area's Lambda takes
 * its own map from its audit file.
 */
export const AUDITS = {
  alerts: alertsAudit,
  campaigns: campaignsAudit,
  'code-releases': codeReleasesAudit,
  customer: customerAudit,
  'data-ingress': dataIngressAudit,
  datasets: datasetsAudit,
  devices: devicesAudit,
  integrations: integrationsAudit,
  migrate: migrateAudit,
  notifications: notificationsAudit,
  organizations: organizationsAudit,
  relations: relationsAudit,
  'sensor-data': sensorDataAudit,
  system: systemAudit,
  users: usersAudit,
  api: apiAudit,
} as const satisfies Record<string, AnyAuditMap>;

/** Every action the platform records, with its words, in the order of the contracts. */
export const AUDIT_ACTIONS: { action: string; label: string; area: string; route: string }[] = Object.entries(
  AUDITS,
).flatMap(([area, declarations]) =>
  Object.entries(declarations as AnyAuditMap).flatMap(([route, declaration]) =>
    declaration && 'action' in declaration
      ? [
          { action: declaration.action, label: declaration.label, area, route },
          ...(declaration.variant ? [{ ...declaration.variant, area, route }] : []),
        ].map(({ action, label }) => ({ action, label, area, route }))
      : [],
  ),
);
