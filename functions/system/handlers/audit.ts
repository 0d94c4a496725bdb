import { AUDIT_ACTIONS } from '../../../shared/contracts/audits';
import type { system } from '../../../shared/contracts/system';
import type { AreaPart } from '../../_shared/http/http-area';
import type { SystemDeps } from '../deps';

/** The audit log's search (docs/audit.md); spread into the system area's handlers. */
export const auditHandlers = {
  searchAudit: ({ body, query }, { audit }) => audit.search(body, query),
  // From the contracts, so the web app need not bundle every declaration to list them.
  listAuditActions: () => ({ items: AUDIT_ACTIONS.map(({ action, label, area }) => ({ action, label, area })) }),
} satisfies AreaPart<typeof system, Pick<SystemDeps, 'audit'>>;
