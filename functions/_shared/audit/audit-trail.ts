import { redact } from '../../../shared/audit/redact';
import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { type Audited, actionOf, isStaffOnly } from '../../../shared/contracts/define-audit';
import type { AnyRoute } from '../../../shared/contracts/define-route';
import { MESSAGES } from '../../../shared/messages';
import { DomainError, ServiceUnavailable } from '../errors';
import { log, logRecord } from '../logger';
import type { KeyRead, ReadAhead } from '../read-ahead';
import { boundedForLog } from './audit-bounds';
import type { AuditNote } from './audit-note';

/** One record of the audit log: the attempt, written before the handler runs, or its outcome, written after. */
export interface AuditRecord {
  phase: 'attempt' | 'outcome';
  /** The request's id: both records of one call carry it. */
  id: string;
  /** When the call was made (ms); the outcome carries the attempt's time, so the two sort together. */
  time: number;
  action: string;
  /** The action in words (the declaration's label when the call was made). */
  label: string;
  area: string;
  route: string;
  method: string;
  path: string;
  actor: { id: string; email?: string; groups: string[] };
  target: { kind: string; id?: string; label?: string };
  /** The route's parsed params, query and body, redacted. */
  change: unknown;
  before?: unknown;
  after?: unknown;
  outcome?: 'succeeded' | 'failed';
  status?: number;
  error?: string;
  finishedAt?: number;
  sourceIp?: string;
  userAgent?: string;
}

/** Where the chain writes (functions/_shared/audit/audit-log-store.ts). Append only: nothing reads back or changes. */
export interface AuditLog {
  /** The actor's record, read with the session record when the token carries no e-mail. */
  actorRead(actorId: string): KeyRead;
  actorEmail(actorId: string, ahead: ReadAhead): Promise<string | undefined>;
  /** Writes one record; never over another (a conditional put). Throws when it could not. */
  append(record: AuditRecord): Promise<void>;
}

export interface ParsedInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Whether one call is a staff action (docs/audit.md, "Which calls"): the caller is staff (by the groups the session
 * check left them), and the route is staff-only, or is open to others and the call is not about the caller's own
 * things. Routes with a device credential or an API key never are: neither carries staff powers.
 */
export const auditsCall = (declaration: Audited, route: AnyRoute, caller: Caller | undefined, input: ParsedInput) =>
  caller !== undefined &&
  route.access.kind !== 'device' &&
  route.access.kind !== 'apiKey' &&
  isStaff(caller.groups) &&
  (isStaffOnly(route) || !declaration.own?.(input, caller.sub));

/** What the caller is told when a call fails: a typed error's message; anything else stays in the log. */
const failureOf = (error: unknown): { status: number; error: string } =>
  error instanceof DomainError
    ? { status: error.status, error: error.message }
    : { status: 500, error: 'Internal error' };

const MAX_HEADER = 300;

export interface TrailCall {
  area: string;
  routeName: string;
  route: AnyRoute;
  declaration: Audited;
  caller: Caller;
  input: ParsedInput;
  requestId: string;
  path: string;
  sourceIp?: string;
  userAgent?: string;
  ahead: ReadAhead;
  now: () => number;
}

/**
 * Records one staff action around its handler (docs/decisions/020-audit-log.md): the attempt first, so no change runs
 * unrecorded (a failed write refuses the call with 503 before anything changed), then the outcome with the target
 * before and after. An outcome that cannot be written leaves the change done and answered, the attempt in the table
 * (shown as outcome "unknown") and the whole record in the function's log at error level.
 */
export const startTrail = async (log_: AuditLog, call: TrailCall) => {
  const { declaration, input, caller } = call;
  const { action, label: actionLabel } = actionOf(declaration, input);
  const time = call.now();
  const email =
    caller.email ??
    (await log_.actorEmail(caller.sub, call.ahead).catch((error: unknown) => {
      // The e-mail is a convenience: the actor's id is the record's authority.
      log('warn', 'Audit: the actor e-mail could not be read', { error: String(error) });
      return undefined;
    }));
  const attempt: AuditRecord = {
    phase: 'attempt',
    id: call.requestId,
    time,
    action,
    label: actionLabel,
    area: call.area,
    route: call.routeName,
    method: call.route.method,
    path: call.path,
    actor: { id: caller.sub, ...(email ? { email } : {}), groups: [...caller.groups] },
    target: { kind: declaration.target.kind, id: safeTargetId(declaration, input, undefined) },
    change: redact(input),
    ...(call.sourceIp ? { sourceIp: call.sourceIp } : {}),
    ...(call.userAgent ? { userAgent: call.userAgent.slice(0, MAX_HEADER) } : {}),
  };
  logRecord('audit', { audit: boundedForLog(attempt) });
  try {
    await log_.append(attempt);
  } catch (error) {
    log('error', 'Audit attempt not recorded: the call was refused before it changed anything', {
      requestId: call.requestId,
      action,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new ServiceUnavailable(MESSAGES.auditUnavailable);
  }

  let before: unknown;
  let after: unknown;
  let label: string | undefined;
  const note: AuditNote = {
    before: (value) => {
      before = value;
    },
    after: (value) => {
      after = value;
    },
    label: (text) => {
      label = text || undefined;
    },
  };

  const finish = async (outcome: Pick<AuditRecord, 'outcome' | 'status' | 'error' | 'after'>, response?: unknown) => {
    const record: AuditRecord = {
      ...attempt,
      phase: 'outcome',
      target: {
        kind: declaration.target.kind,
        id: safeTargetId(declaration, input, response) ?? attempt.target.id,
        ...(label ? { label: label.slice(0, MAX_HEADER) } : {}),
      },
      ...(before !== undefined ? { before: redact(before) } : {}),
      ...outcome,
      ...(outcome.after !== undefined ? { after: redact(outcome.after) } : {}),
      finishedAt: call.now(),
    };
    logRecord('audit', { audit: boundedForLog(record) });
    try {
      await log_.append(record);
    } catch (error) {
      // The change is done: answering an error would invite a retry of it. The attempt stands in the table, and
      // this line carries the whole outcome for whoever reconciles it.
      log('error', 'AUDIT OUTCOME NOT RECORDED: the change stands; the record is in this line', {
        audit: boundedForLog(record),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  return {
    note,
    succeeded: (response: unknown, status: number) =>
      finish(
        {
          outcome: 'succeeded',
          status,
          after: after ?? (response === undefined ? undefined : (declaration.after?.(input, response) ?? response)),
        },
        response,
      ),
    // A failed call left its target as it was: what it asked for is in `change`.
    failed: (error: unknown) => finish({ outcome: 'failed', ...failureOf(error) }),
  };
};

/** A declaration's target id; a declaration that throws names no target rather than failing the call. */
const safeTargetId = (declaration: Audited, input: ParsedInput, response: unknown): string | undefined => {
  try {
    return declaration.target.id(input, response) || undefined;
  } catch {
    return undefined;
  }
};

export type AuditTrail = Awaited<ReturnType<typeof startTrail>>;
