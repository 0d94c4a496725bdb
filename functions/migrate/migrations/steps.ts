import type { DeviceSubscriptionRecord } from '../../_shared/billing/device-subscription-record';
import type { RelationMigration } from '../../_shared/relations/relation-migration';
import type { MigrationStep } from '../domain/runner';
import type { MigrationId } from './catalogue';

/** Rows per step: small enough that a step ends well inside any time budget. */
export const STEP_SIZE = 100;

export interface StepDeps {
  /** The relations table's own migration (the relations area runs the same one from its GET /migrate/ route). */
  relations: RelationMigration;
  /** A page of the device subscription records as stored. */
  subscriptionPage: (cursor: string | undefined) => Promise<{ items: Record<string, unknown>[]; nextCursor?: string }>;
  /** The customer area's history write: kept unless a newer read of that subscription is there. */
  putHistory: (record: DeviceSubscriptionRecord) => Promise<boolean>;
  /** A page of the webhooks as stored. */
  webhookPage: (cursor: string | undefined) => Promise<{ items: Record<string, unknown>[]; nextCursor?: string }>;
  /** Deletes the retired presence job's items of one webhook; answers how many there were. */
  removePresenceItems: (webhookId: string) => Promise<number>;
}

/** Whether a stored record came from a Stripe subscription (demo data and tests write tiers without one). */
const fromStripe = (item: Record<string, unknown>): item is Record<string, unknown> & DeviceSubscriptionRecord =>
  typeof item.id === 'string' && item.id.startsWith('sub_') && typeof item.deviceId === 'string';

/** Each migration's step, by id: every one idempotent, so a step run twice changes nothing more. */
export const migrationSteps = (deps: StepDeps): Record<MigrationId, MigrationStep> => ({
  '2026-10-01-relations-shape': async (cursor) => {
    const page = await deps.relations.migrate({ limit: STEP_SIZE, ...(cursor ? { cursor } : {}) });
    return {
      scanned: page.scanned,
      updated: page.updated,
      skipped: page.skipped,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  },

  '2026-11-25-subscription-history': async (cursor) => {
    const page = await deps.subscriptionPage(cursor);
    let updated = 0;
    for (const item of page.items) {
      if (!fromStripe(item)) continue;
      const syncedAt = typeof item.syncedAt === 'number' ? item.syncedAt : Number(item.updated ?? 0);
      if (await deps.putHistory({ ...item, syncedAt })) updated += 1;
    }
    return {
      scanned: page.items.length,
      updated,
      skipped: 0,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  },

  '2026-11-29-webhook-presence-items': async (cursor) => {
    const page = await deps.webhookPage(cursor);
    let updated = 0;
    let skipped = 0;
    for (const item of page.items) {
      if (typeof item.id !== 'string') continue;
      if ((await deps.removePresenceItems(item.id)) > 0) updated += 1;
      else skipped += 1;
    }
    return {
      scanned: page.items.length,
      updated,
      skipped,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  },
});
