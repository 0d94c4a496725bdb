import type { AuditEntry, AuditSearch } from '../../shared/audit/audit-entry';
import { apiAs, everyPage, tokenOf } from './stack';

/**
 * The audit log as an administrator searches it (POST /system/audit), every page. Tests share one stack and one
 * log, so they search from the moment their own action started (`from`) and by its target.
 */
export const auditEntries = async (search: AuditSearch, token?: string): Promise<AuditEntry[]> => {
  const system = apiAs('system', token ?? (await tokenOf('admin@example.com')));
  return everyPage((cursor) =>
    system.searchAudit({ body: search, query: { limit: 100, ...(cursor ? { cursor } : {}) } }),
  );
};

/** The one entry of this action on this target since `from`; fails the test when there is not exactly one. */
export const auditEntry = async (action: string, target: string, from: number): Promise<AuditEntry> => {
  const entries = await auditEntries({ action, target, from });
  if (entries.length !== 1) {
    throw new Error(`Expected one ${action} entry on ${target}, found ${entries.length}: ${JSON.stringify(entries)}`);
  }
  return entries[0]!;
};

/** A moment before an action, so that `from` includes it (a millisecond of slack for the same-millisecond case). */
export const momentBefore = () => Date.now() - 1;
