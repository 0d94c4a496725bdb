import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetKeys, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import { PROFILE_SK, type StoredProfile } from '../../_shared/sensor-data/quality-profile';
import type { CalibrationRecord, ExclusionRecord, QualityStore, ReprocessJob } from '../domain/ports';

const CAL = 'cal#';
const EXC = 'exc#';
const JOB = 'job';

type Item = Record<string, unknown>;

const strip = <T>({ sk: _sk, ...item }: Item): T => item as T;

/**
 * The data-quality table (TABLES.dataQuality, docs/data-quality.md): per device its profile, each calibration
 * version's and exclusion's record, and its reprocessing run. No transactions (decision 002): a record is written
 * before the profile that puts it in force, and the profile is written only at the version it was read at.
 */
export const createQualityStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): QualityStore => {
  const get = async (deviceId: string, sk: string) =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { deviceId, sk }, ConsistentRead: true }))).Item;

  const byPrefix = <T>(deviceId: string, prefix: string) =>
    readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'deviceId = :d AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':d': deviceId, ':p': prefix },
          ConsistentRead: true,
        },
        { startKey },
        strip<T>,
      ),
    );

  const byCampaign = <T>(campaignId: string, prefix: string) =>
    readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: tableName,
          IndexName: 'byCampaign',
          KeyConditionExpression: 'campaignId = :c',
          FilterExpression: 'begins_with(sk, :p)',
          ExpressionAttributeValues: { ':c': campaignId, ':p': prefix },
          ScanIndexForward: false,
        },
        { startKey },
        strip<T>,
      ),
    );

  return {
    profile: async (deviceId) => (await get(deviceId, PROFILE_SK)) as StoredProfile | undefined,

    saveProfile: (profile, expected) =>
      putIf(db, {
        TableName: tableName,
        Item: profile,
        ...(expected === 0
          ? { ConditionExpression: 'attribute_not_exists(sk)' }
          : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expected } }),
      }),

    putCalibration: async (record) => {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...record, sk: `${CAL}${record.id}` } }));
    },

    putExclusion: async (record) => {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...record, sk: `${EXC}${record.id}` } }));
    },

    getExclusion: async (deviceId, id) => {
      const item = await get(deviceId, `${EXC}${id}`);
      return item ? strip<ExclusionRecord>(item) : undefined;
    },

    markRemoved: async (deviceId, id, by, at) =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { deviceId, sk: `${EXC}${id}` },
        UpdateExpression: 'SET removedBy = :by, removedAt = :at',
        ConditionExpression: 'attribute_exists(sk) AND attribute_not_exists(removedAt)',
        ExpressionAttributeValues: { ':by': by, ':at': at },
      })) !== undefined,

    calibrations: (deviceId) => byPrefix<CalibrationRecord>(deviceId, CAL),
    exclusions: (deviceId) => byPrefix<ExclusionRecord>(deviceId, EXC),
    campaignCalibrations: (campaignId) => byCampaign<CalibrationRecord>(campaignId, CAL),
    campaignExclusions: (campaignId) => byCampaign<ExclusionRecord>(campaignId, EXC),

    profiles: async (deviceIds) => {
      if (deviceIds.length === 0) return new Map();
      const found = await batchGetKeys(db, {
        [tableName]: {
          Keys: [...new Set(deviceIds)].map((deviceId) => ({ deviceId, sk: PROFILE_SK })),
          ConsistentRead: true,
        },
      });
      return new Map(
        (found.get(tableName) ?? []).map((item) => [item.deviceId as string, item as unknown as StoredProfile]),
      );
    },

    job: async (deviceId) => {
      const item = await get(deviceId, JOB);
      return item ? strip<ReprocessJob>(item) : undefined;
    },

    saveJob: (job, expected) =>
      putIf(db, {
        TableName: tableName,
        Item: { ...job, sk: JOB },
        ...(expected
          ? {
              ConditionExpression: 'started = :started AND #cursor = :cursor',
              ExpressionAttributeNames: { '#cursor': 'cursor' },
              ExpressionAttributeValues: { ':started': expected.started, ':cursor': expected.cursor },
            }
          : {
              ConditionExpression: 'attribute_not_exists(sk) OR #status = :done',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':done': 'done' },
            }),
      }),
  };
};
