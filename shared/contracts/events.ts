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

export const DomainEvent = z.discriminatedUnion('kind', [RelationChanged]);
export type DomainEvent = z.infer<typeof DomainEvent>;

/** Spec §6: these relation changes notify the affected users or organization managers. */
export const NOTIFIED_RELATION_TYPES = ['device-owner', 'device-administrator', 'organization-device'] as const;
