import { z } from 'zod';
import { EpochMillis } from './common';
import { Relation } from './relations';

/**
 * Domain events: messages on the jobs queue for the notifications worker (ROADMAP 1). Each names its
 * change; a consumer re-reads current state before acting, since a change may have been undone after
 * its event was sent (see docs/relations.md).
 */
export const RelationChanged = z.object({
  kind: z.literal('relation.changed'),
  /** Unique per change: consumers de-duplicate on it (SQS may deliver twice). */
  eventId: z.string(),
  change: z.enum(['added', 'removed']),
  relation: Relation,
  actorId: z.string(),
  at: EpochMillis,
});
export type RelationChanged = z.infer<typeof RelationChanged>;

/** Spec §6: granting or removing these groups notifies all administrators. */
export const NOTIFIED_GROUPS = ['Administrators', 'Employees'] as const;

/** A person gained or lost a staff group (docs/users.md); the notifications worker tells every administrator. */
export const RoleChanged = z.object({
  kind: z.literal('role.changed'),
  /** Unique per change: consumers de-duplicate on it (SQS may deliver twice). */
  eventId: z.string(),
  change: z.enum(['added', 'removed']),
  userId: z.string(),
  group: z.enum(NOTIFIED_GROUPS),
  actorId: z.string(),
  at: EpochMillis,
});
export type RoleChanged = z.infer<typeof RoleChanged>;

export const DomainEvent = z.discriminatedUnion('kind', [RelationChanged, RoleChanged]);
export type DomainEvent = z.infer<typeof DomainEvent>;

/** Spec §6: these relation changes notify the affected users or organization managers. */
export const NOTIFIED_RELATION_TYPES = ['device-owner', 'device-administrator', 'organization-device'] as const;
