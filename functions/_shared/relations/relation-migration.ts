import type { Relation } from '../../../shared/contracts/shapes';
import { ObjectId } from '../../../shared/contracts/shapes';
import { CAMPAIGN_DEVICE_GRANTS } from '../../../shared/relations/relation-rules';
import { RELATION_TYPES, type RelationType, relationId } from '../../../shared/relations/relation-types';
import type { AccessVersionStore } from '../access/access-version-store';
import { cursorPage } from '../paging';
import { usersOf } from './relation-effects';
import type { RelationTable } from './relation-table';

/**
 * Users whose access a relation's change may alter: their cached decisions must not survive it. A campaign-device
 * change reaches every member of the campaign.
 */
export const affectedUsersOf =
  (table: Pick<RelationTable, 'queryAll'>) =>
  async (relation: Relation): Promise<string[]> => {
    const users = usersOf(relation);
    if (relation.type === 'campaign-device') {
      const members = await table.queryAll('referrer', relation.referrerId, CAMPAIGN_DEVICE_GRANTS);
      users.push(...members.map((member) => member.referentId));
    }
    return users;
  };

export interface RelationMigrationDeps {
  table: Pick<RelationTable, 'scan' | 'create' | 'removeRow' | 'put' | 'queryAll'>;
  versions: Pick<AccessVersionStore, 'bump'>;
  now: () => number;
}

/**
 * The relations table brought to its current shape, a page at a time: the relations area's own route (GET
 * /relations/migrate/) and the migrate area's deploy-time step (its `2026-10-01-relations-shape`) both run it.
 */
export const createRelationMigration = ({ table, versions, now }: RelationMigrationDeps) => {
  const affectedUsers = affectedUsersOf(table);
  return {
    /**
     * One page of the table brought to the current shape: legacy rows get the deterministic id (a duplicate
     * of an existing relation is dropped), the index sort keys and a creation time. Rows that cannot be a
     * relation (unknown type, missing or malformed ids) are counted and left for a person to look at.
     */
    migrate: async ({ limit, cursor }: { limit: number; cursor?: string }) => {
      const page = await cursorPage((startKey, max) => table.scan({ limit: max, startKey }), { limit, cursor });
      let updated = 0;
      let skipped = 0;
      const touched: Relation[] = [];
      for (const row of page.items) {
        const plan = planMigration(row, now());
        if (plan === 'invalid') {
          skipped += 1;
          continue;
        }
        if (plan === 'current') continue;
        if (plan.rekey) {
          await table.create(plan.relation);
          await table.removeRow(String(row.id));
        } else {
          await table.put(plan.relation);
        }
        touched.push(plan.relation);
        updated += 1;
      }
      if (touched.length) {
        const users = (await Promise.all(touched.map(affectedUsers))).flat();
        await versions.bump(users, now());
      }
      return { scanned: page.items.length, updated, skipped, nextCursor: page.nextCursor };
    },
  };
};

/** What the migration does with one stored row. */
export const planMigration = (
  row: Record<string, unknown>,
  now: number,
): 'current' | 'invalid' | { relation: Relation; rekey: boolean } => {
  const { type, referrerId, referentId } = row;
  if (
    typeof type !== 'string' ||
    !(RELATION_TYPES as readonly string[]).includes(type) ||
    !ObjectId.safeParse(referrerId).success ||
    !ObjectId.safeParse(referentId).success ||
    referrerId === referentId
  ) {
    return 'invalid';
  }
  const relationType = type as RelationType;
  const id = relationId(relationType, referrerId as string, referentId as string);
  const relation: Relation = {
    id,
    type: relationType,
    referrerId: referrerId as string,
    referentId: referentId as string,
    created: typeof row.created === 'number' ? row.created : now,
    ...(typeof row.createdBy === 'string' ? { createdBy: row.createdBy } : {}),
  };
  const current =
    row.id === id &&
    typeof row.created === 'number' &&
    row.referrerSort === `${type}#${referentId}` &&
    row.referentSort === `${type}#${referrerId}`;
  return current ? 'current' : { relation, rekey: row.id !== id };
};

export type RelationMigration = ReturnType<typeof createRelationMigration>;
