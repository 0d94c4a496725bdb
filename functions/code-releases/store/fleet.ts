import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { RelationType } from '../../../shared/relations/relation-types';
import { batchGetKeys, isConditionFailure, updateIf } from '../../_shared/dynamodb';
import { inLanes } from '../../_shared/in-lanes';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { AssignedDevice, AssignRefusal, Fleet, Organizations, TakenFirst } from '../domain/ports';

/** What a device's update history keeps of each rollout that targeted it (the target holds the rest). */
const historyEntryOf = ({ rolloutId, releaseId, version, assigned }: FirmwareTarget) => ({
  rolloutId,
  releaseId,
  version,
  assigned,
});

/** Relation queries at once when a halt looks up the organizations of its devices. */
const ORGANIZATION_LANES = 8;

/**
 * The organizations holding each device (`organization-device` relations, read from the device's end): whose
 * managers hear of a halted rollout that reached their devices.
 */
export const createOrganizationsOfDevices = ({
  relations,
}: {
  relations: Pick<RelationTable, 'queryAll'>;
}): Organizations => ({
  ofDevices: async (deviceIds) => {
    const unique = [...new Set(deviceIds)];
    const found = await inLanes(unique, ORGANIZATION_LANES, async (deviceId) =>
      (await relations.queryAll('referent', deviceId, ['organization-device'])).map((r) => r.referrerId),
    );
    return new Map(unique.map((deviceId, index) => [deviceId, found[index]!]));
  },
});

/**
 * What a rollout reads and writes of the fleet: the devices a campaign or organization holds (their relations), their
 * names, and each targeted device's `firmwareTarget` and `firmwareHistory` (the only fields of the devices table this area
 * writes).
 */
export const createFleet = ({
  db,
  devicesTable,
  campaignsTable,
  organizationsTable,
  relations,
}: {
  db: DynamoDBDocumentClient;
  devicesTable: string;
  campaignsTable: string;
  organizationsTable: string;
  relations: Pick<RelationTable, 'queryAll'>;
}): Fleet => ({
  nameOf: async (kind: 'campaign' | 'organization', id: string): Promise<string | undefined> => {
    const result = await db.send(
      new GetCommand({
        TableName: kind === 'campaign' ? campaignsTable : organizationsTable,
        Key: { id },
        ProjectionExpression: '#name',
        ExpressionAttributeNames: { '#name': 'name' },
      }),
    );
    return result.Item ? String(result.Item.name ?? id) : undefined;
  },

  devicesOf: async (kind: 'campaign' | 'organization', id: string): Promise<string[]> => {
    const type: RelationType = kind === 'campaign' ? 'campaign-device' : 'organization-device';
    return (await relations.queryAll('referrer', id, [type])).map((relation) => relation.referentId);
  },

  standing: async (deviceIds, productLine) => {
    const keys = [...new Set(deviceIds)].map((id) => ({ id }));
    const found =
      keys.length === 0
        ? []
        : ((
            await batchGetKeys(db, {
              [devicesTable]: {
                Keys: keys,
                ConsistentRead: true,
                ProjectionExpression: 'id, #state, productLine, firmwareVersion',
                ExpressionAttributeNames: { '#state': 'state' },
              },
            })
          ).get(devicesTable) ?? []);
    const byId = new Map(found.map((item) => [String(item.id), item]));
    const standingOf = (item: Record<string, unknown> | undefined): AssignedDevice | { refused: AssignRefusal } => {
      if (!item) return { refused: 'unknown' };
      if (item.state === 'retired') return { refused: 'retired' };
      if (item.productLine !== productLine) return { refused: 'otherProductLine' };
      return typeof item.firmwareVersion === 'string' ? { firmwareVersion: item.firmwareVersion } : {};
    };
    return new Map(deviceIds.map((id) => [id, standingOf(byId.get(id))]));
  },

  assign: async (
    deviceId: string,
    productLine: string,
    target: FirmwareTarget,
  ): Promise<AssignedDevice | { refused: AssignRefusal } | TakenFirst> => {
    try {
      // The same write adds the rollout to the device's update history (newest last; the page shows the newest). A
      // device pointing at the rollout already is not written again, so its history holds the rollout once.
      const before = await updateIf(db, {
        TableName: devicesTable,
        Key: { id: deviceId },
        UpdateExpression:
          'SET firmwareTarget = :target, firmwareHistory = list_append(if_not_exists(firmwareHistory, :none), :entry)',
        ConditionExpression:
          'attribute_exists(id) AND productLine = :line AND #state <> :retired AND (attribute_not_exists(firmwareTarget) OR (firmwareTarget.rolloutId <> :rollout AND firmwareTarget.assigned <= :assigned))',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':target': target,
          ':line': productLine,
          ':retired': 'retired',
          ':rollout': target.rolloutId,
          ':assigned': target.assigned,
          ':none': [],
          ':entry': [historyEntryOf(target)],
        },
        ReturnValues: 'ALL_OLD',
      });
      if (before) {
        const previous = before.firmwareTarget as FirmwareTarget | undefined;
        return {
          ...(typeof before.firmwareVersion === 'string' ? { firmwareVersion: before.firmwareVersion } : {}),
          ...(previous ? { previousRolloutId: previous.rolloutId } : {}),
        };
      }
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Refused, or assigned already: read which (the rare path, so the usual one stays one write).
    const found = await db.send(
      new GetCommand({
        TableName: devicesTable,
        Key: { id: deviceId },
        ProjectionExpression: '#state, productLine, firmwareVersion, firmwareTarget, firmwareHistory',
        ExpressionAttributeNames: { '#state': 'state' },
        ConsistentRead: true,
      }),
    );
    const item = found.Item;
    if (!item) return { refused: 'unknown' };
    const current = item.firmwareTarget as FirmwareTarget | undefined;
    const assignable = item.state !== 'retired' && item.productLine === productLine;
    if (assignable && current && current.rolloutId !== target.rolloutId && current.assigned > target.assigned) {
      return { takenBy: { rolloutId: current.rolloutId, assigned: current.assigned } };
    }
    if (current?.rolloutId === target.rolloutId) {
      const previousRolloutId = rolloutBefore(item.firmwareHistory, target.rolloutId);
      return {
        already: true,
        ...(typeof item.firmwareVersion === 'string' ? { firmwareVersion: item.firmwareVersion } : {}),
        ...(previousRolloutId ? { previousRolloutId } : {}),
      };
    }
    return { refused: item.state === 'retired' ? 'retired' : 'otherProductLine' };
  },
});

/** The rollout a device's history names just before `rolloutId`'s last entry: what targeted it before that one. */
const rolloutBefore = (history: unknown, rolloutId: string): string | undefined => {
  if (!Array.isArray(history)) return undefined;
  const entries = history as { rolloutId?: string }[];
  const at = entries.findLastIndex((entry) => entry.rolloutId === rolloutId);
  return at > 0 ? entries[at - 1]!.rolloutId : undefined;
};
