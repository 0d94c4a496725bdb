import * as z from 'zod';
import { JsonValue } from '../contracts/common';

/**
 * The audit log (docs/audit.md): one entry per staff action, written by the HTTP chain from the route's audit
 * declaration (`defineAudit` in each contract). Times are milliseconds; targets keep the spec's own ids (a person's
 * id, a relation's `type#referrerId#referentId`, a parameter's id).
 */

/** Entries are kept two years, then DynamoDB's TTL may remove them (docs/decisions/020-audit-log.md). */
export const AUDIT_RETENTION_DAYS = 730;
export const AUDIT_RETENTION_MS = AUDIT_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** An action's name: lower-case words joined by dots, the object first (`user.group.add`). */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-z-]*(\.[a-z][a-z-]*)+$/;
/** A target's kind: one lower-case word or a few joined by dashes (`user`, `tier-features`). */
export const AUDIT_TARGET_KIND_PATTERN = /^[a-z][a-z-]*$/;

/**
 * `succeeded` and `failed`: the handler's answer was recorded. `unknown`: the attempt was recorded before the change
 * ran, but no outcome after it (the function stopped, or the second write failed): the change may have happened.
 */
export const AUDIT_OUTCOMES = ['succeeded', 'failed', 'unknown'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AuditEntry = z.object({
  /** The request's id (API Gateway's), which both of the entry's records carry. */
  id: z.string(),
  /** When the call was made (ms). */
  time: z.number().int(),
  action: z.string(),
  /** The action in words, as the platform named it when the entry was written. */
  label: z.string(),
  /** The service area and the route (the contract's name) that made the change. */
  area: z.string(),
  route: z.string(),
  method: z.string(),
  /** The path as called, e.g. `/addUserToGroup/{id}/Employees/{actor}`. */
  path: z.string(),
  /** Who, as the verified token says (the e-mail from the platform's record when the token carries none). */
  actor: z.object({ id: z.string(), email: z.string().optional(), groups: z.array(z.string()) }),
  /** On what: its kind, its id (absent when the call named none, e.g. a create that failed), and a readable name. */
  target: z.object({ kind: z.string(), id: z.string().optional(), label: z.string().optional() }),
  /** What was asked: the route's path parameters, query and body, secrets redacted. */
  change: JsonValue,
  /** The target before and after the change, as the use case saw it (secrets redacted). */
  before: JsonValue.optional(),
  after: JsonValue.optional(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The HTTP status answered. */
  status: z.number().int().optional(),
  /** Why it failed, as the caller was told. */
  error: z.string().optional(),
  /** When the outcome was recorded (ms). */
  finishedAt: z.number().int().optional(),
  sourceIp: z.string().optional(),
  userAgent: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const Text = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} is at most ${max} characters`);

/**
 * What an administrator searches by; every filter is optional and they combine. `from` and `to` are milliseconds,
 * `from` inclusive, `to` exclusive.
 */
export const AuditSearch = z
  .object({
    /** The actor's user id. */
    actor: Text('Actor', 128).optional(),
    /** The target's id (the spec's id of the person, parameter, relation, device …). */
    target: Text('Target', 400).optional(),
    targetKind: z.string().regex(AUDIT_TARGET_KIND_PATTERN, 'Target kind must be a word such as "user"').optional(),
    action: z.string().regex(AUDIT_ACTION_PATTERN, 'Action must be a name such as "user.group.add"').optional(),
    from: z.number({ error: '"from" must be a time in milliseconds' }).int().nonnegative().optional(),
    to: z.number({ error: '"to" must be a time in milliseconds' }).int().positive().optional(),
  })
  .strict()
  .refine((search) => search.from === undefined || search.to === undefined || search.from < search.to, {
    message: '"from" must be before "to"',
    path: ['to'],
  });
export type AuditSearch = z.infer<typeof AuditSearch>;

/** One action the platform records, for the audit page's list of actions. */
export const AuditAction = z.object({ action: z.string(), label: z.string(), area: z.string() });
export type AuditAction = z.infer<typeof AuditAction>;
