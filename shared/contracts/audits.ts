import { apiAudit } from './api';
import { campaignsAudit } from './campaigns';
import { codeReleasesAudit } from './code-releases';
import { customerAudit } from './customer';
import { dataIngressAudit } from './data-ingress';
import { datasetsAudit } from './datasets';
import type { AnyAuditMap } from './define-audit';
import { devicesAudit } from './devices';
import { migrateAudit } from './migrate';
import { notificationsAudit } from './notifications';
import { organizationsAudit } from './organizations';
import { relationsAudit } from './relations';
import { sensorDataAudit } from './sensor-data';
import { systemAudit } from './system';
import { usersAudit } from './users';

/**
 * Every area's audit declarations (docs/audit.md), as AREAS lists the areas: `audit-coverage.test.ts` walks both,
 * and the audit page lists the actions from here. An area's Lambda gets its own map from its contract file, not
 * from here, so no Lambda bundles every contract.
 */
export const AUDITS = {
  campaigns: campaignsAudit,
  'code-releases': codeReleasesAudit,
  customer: customerAudit,
  'data-ingress': dataIngressAudit,
  datasets: datasetsAudit,
  devices: devicesAudit,
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
