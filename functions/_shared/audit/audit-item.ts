import { AUDIT_RETENTION_MS, type AuditEntry } from '../../../shared/audit/audit-entry';
import { boundedJson as json } from './audit-bounds';
import type { AuditRecord } from './audit-trail';

/**
 * How a record is stored in the audit log table (functions/_shared/tables.ts `auditLog`), written by the chain's
 * store and read by the system area's search:
 * - `month` (`YYYY-MM`, UTC) partitions the table by the call's time, `at` sorts within it:
 *   `{time, 13 digits}#{requestId}#{a|o}`, so a call's attempt and outcome sit side by side, the outcome first when
 *   read newest first, in the table and in every index;
 * - byActor, byTarget and byAction are keyed by `actorId`, `targetId` and `action`, each sorted by `at`;
 * - `change`, `before` and `after` are JSON text: any shape, and one size limit.
 */
export interface AuditItem {
  month: string;
  at: string;
  phase: 'attempt' | 'outcome';
  id: string;
  time: number;
  action: string;
  label: string;
  area: string;
  route: string;
  method: string;
  path: string;
  actorId: string;
  actorEmail?: string;
  actorGroups: string[];
  targetKind: string;
  targetId?: string;
  targetLabel?: string;
  change: string;
  before?: string;
  after?: string;
  outcome?: 'succeeded' | 'failed';
  status?: number;
  error?: string;
  finishedAt?: number;
  sourceIp?: string;
  userAgent?: string;
  /** Seconds: DynamoDB's TTL may remove the item after the retention (the cloud's housekeeping only). */
  expiresAt: number;
}

export const monthOf = (time: number): string => new Date(time).toISOString().slice(0, 7);

/** The sort key's time part: fixed width, so text order is time order. */
export const sortTime = (time: number): string => String(Math.max(0, Math.floor(time))).padStart(13, '0');

const PHASE_MARK = { attempt: 'a', outcome: 'o' } as const;

const parse = (text: string | undefined): AuditEntry['change'] | undefined => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as AuditEntry['change'];
  } catch {
    return text;
  }
};

export const toAuditItem = (record: AuditRecord): AuditItem => ({
  month: monthOf(record.time),
  at: `${sortTime(record.time)}#${record.id}#${PHASE_MARK[record.phase]}`,
  phase: record.phase,
  id: record.id,
  time: record.time,
  action: record.action,
  label: record.label,
  area: record.area,
  route: record.route,
  method: record.method,
  path: record.path,
  actorId: record.actor.id,
  ...(record.actor.email ? { actorEmail: record.actor.email } : {}),
  actorGroups: record.actor.groups,
  targetKind: record.target.kind,
  ...(record.target.id ? { targetId: record.target.id } : {}),
  ...(record.target.label ? { targetLabel: record.target.label } : {}),
  change: json(record.change),
  ...(record.before !== undefined ? { before: json(record.before) } : {}),
  ...(record.after !== undefined ? { after: json(record.after) } : {}),
  ...(record.outcome ? { outcome: record.outcome } : {}),
  ...(record.status !== undefined ? { status: record.status } : {}),
  ...(record.error ? { error: record.error } : {}),
  ...(record.finishedAt !== undefined ? { finishedAt: record.finishedAt } : {}),
  ...(record.sourceIp ? { sourceIp: record.sourceIp } : {}),
  ...(record.userAgent ? { userAgent: record.userAgent } : {}),
  expiresAt: Math.floor((record.time + AUDIT_RETENTION_MS) / 1000),
});

/** An entry as the search answers it; an attempt read alone has outcome `unknown`. */
export const toAuditEntry = (item: AuditItem): AuditEntry => ({
  id: item.id,
  time: item.time,
  action: item.action,
  label: item.label ?? item.action,
  area: item.area,
  route: item.route,
  method: item.method,
  path: item.path,
  actor: { id: item.actorId, ...(item.actorEmail ? { email: item.actorEmail } : {}), groups: item.actorGroups ?? [] },
  target: {
    kind: item.targetKind,
    ...(item.targetId ? { id: item.targetId } : {}),
    ...(item.targetLabel ? { label: item.targetLabel } : {}),
  },
  change: parse(item.change) ?? null,
  ...(item.before !== undefined ? { before: parse(item.before) } : {}),
  ...(item.after !== undefined ? { after: parse(item.after) } : {}),
  outcome: item.phase === 'outcome' ? (item.outcome ?? 'succeeded') : 'unknown',
  ...(item.status !== undefined ? { status: item.status } : {}),
  ...(item.error ? { error: item.error } : {}),
  ...(item.finishedAt !== undefined ? { finishedAt: item.finishedAt } : {}),
  ...(item.sourceIp ? { sourceIp: item.sourceIp } : {}),
  ...(item.userAgent ? { userAgent: item.userAgent } : {}),
});
