import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { RelationType } from '../../../shared/relations/relation-types';
import { isConditionFailure, updateIf } from '../../_shared/dynamodb';
import { inLanes } from '../../_shared/in-lanes';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { AssignedDevice, AssignRefusal, Fleet, Organizations } from '../domain/ports';

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

  assign: async (
    deviceId: string,
    productLine: string,
    target: FirmwareTarget,
  ): Promise<AssignedDevice | { refused: AssignRefusal }> => {
    try {
      // The same write adds the rollout to the device's update history (newest last; the page shows the newest).
      const before = await updateIf(db, {
        TableName: devicesTable,
        Key: { id: deviceId },
        UpdateExpression:
          'SET firmwareTarget = :target, firmwareHistory = list_append(if_not_exists(firmwareHistory, :none), :entry)',
        ConditionExpression: 'attribute_exists(id) AND productLine = :line AND #state <> :retired',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':target': target,
          ':line': productLine,
          ':retired': 'retired',
          ':none': [],
          ':entry': [historyEntryOf(target)],
        },
        ReturnValues: 'ALL_OLD',
      });
      if (before) {
        return {
          ...(typeof before.firmwareVersion === 'string' ? { firmwareVersion: before.firmwareVersion } : {}),
          ...(before.firmwareTarget ? { previousTarget: before.firmwareTarget as FirmwareTarget } : {}),
        };
      }
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    // Refused: read why (the rare path, so the usual one stays one write).
    const found = await db.send(
      new GetCommand({
        TableName: devicesTable,
        Key: { id: deviceId },
        ProjectionExpression: '#state, productLine',
        ExpressionAttributeNames: { '#state': 'state' },
      }),
    );
    if (!found.Item) return { refused: 'unknown' };
    return { refused: found.Item.state === 'retired' ? 'retired' : 'otherProductLine' };
  },
});
