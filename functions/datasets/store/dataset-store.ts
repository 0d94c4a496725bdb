import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DatasetDevice } from '../../../shared/contracts/datasets';
import type { DatasetRecord, StoredDatasetFile } from '../../_shared/datasets/dataset-access';
import { createDatasetRecords } from '../../_shared/datasets/dataset-records';
import { type PageStart, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { createHourlyCounter } from '../../_shared/hourly-counter';
import { readAll } from '../../_shared/paging';
import type { DatasetStore } from '../domain/ports';

type Key = Record<string, unknown>;

const STATUS = { '#status': 'status' };

/**
 * The datasets table: the API creates records, the worker moves them queued → building → frozen | failed one step at a
 * time. Every change after creation is conditional on the status (and the step), so a frozen dataset is never
 * written again and a step is recorded once however often its message comes.
 */
export const createDatasetStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DatasetStore => {
  const page = (index: string, condition: string, values: Record<string, unknown>, start: PageStart) =>
    queryPage<DatasetRecord>(
      db,
      {
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: condition,
        ExpressionAttributeValues: values,
        ScanIndexForward: index === 'byConcept',
      },
      start,
    );

  return {
    create: (record: DatasetRecord): Promise<boolean> =>
      putIf(db, { TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(id)' }),

    get: createDatasetRecords({ db, tableName }).get,

    nextVersion: async (conceptId: string): Promise<number> => {
      const result = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id: `versions#${conceptId}` },
          UpdateExpression: 'ADD #count :one',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return 1 + (result.Attributes?.count as number);
    },

    countBuild: createHourlyCounter({ db, tableName, kind: 'builds' }),

    start: async (id: string, now: number): Promise<DatasetRecord | undefined> =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET #status = :building, updated = :now ADD attempts :one',
        ConditionExpression: 'attribute_exists(conceptId) AND #status IN (:queued, :building)',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':building': 'building', ':queued': 'queued', ':now': now, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      })) as DatasetRecord | undefined,

    progress: async (id: string, progress: number, now: number): Promise<void> => {
      await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET progress = :progress, updated = :now',
        ConditionExpression: '#status = :building AND progress < :progress',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':progress': progress, ':now': now, ':building': 'building' },
      });
    },

    stepDone: async (
      id: string,
      step: number,
      { files, device, progress }: { files: StoredDatasetFile[]; device: DatasetDevice; progress: number },
      now: number,
    ): Promise<boolean> =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression:
          'SET files = list_append(files, :files), step = :next, attempts = :zero, devices[' +
          `${step}] = :device, progress = :progress, updated = :now REMOVE #error ADD #rows :rows, bytes :bytes`,
        ConditionExpression: '#status = :building AND step = :step',
        ExpressionAttributeNames: { ...STATUS, '#rows': 'rows', '#error': 'error' },
        ExpressionAttributeValues: {
          ':files': files,
          ':next': step + 1,
          ':zero': 0,
          ':device': device,
          ':progress': progress,
          ':now': now,
          ':rows': files.filter((file) => file.format === 'csv').reduce((sum, file) => sum + (file.rows ?? 0), 0),
          ':bytes': files.reduce((sum, file) => sum + file.bytes, 0),
          ':building': 'building',
          ':step': step,
        },
      })) !== undefined,

    freeze: async (
      id: string,
      { manifest, frozenAt, listed }: { manifest: StoredDatasetFile; frozenAt: number; listed: boolean },
      steps: number,
    ): Promise<boolean> =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression:
          'SET files = list_append(files, :files), #status = :frozen, progress = :hundred, frozenAt = :at, ' +
          `updated = :at, step = :next${listed ? ', listing = :public' : ''} REMOVE #error`,
        ConditionExpression: '#status = :building AND step = :step',
        ExpressionAttributeNames: { ...STATUS, '#error': 'error' },
        ExpressionAttributeValues: {
          ':files': [manifest],
          ':frozen': 'frozen',
          ':hundred': 100,
          ':at': frozenAt,
          ':next': steps + 1,
          ':building': 'building',
          ':step': steps,
          ...(listed ? { ':public': 'public' } : {}),
        },
      })) !== undefined,

    setback: async (id: string, status: 'queued' | 'failed', error: string, now: number): Promise<void> => {
      await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: 'SET #status = :status, #error = :error, updated = :now',
        ConditionExpression: '#status IN (:queued, :building)',
        ExpressionAttributeNames: { ...STATUS, '#error': 'error' },
        ExpressionAttributeValues: {
          ':status': status,
          ':error': error,
          ':now': now,
          ':queued': 'queued',
          ':building': 'building',
        },
      });
    },

    listByCreator: (creatorId: string, startKey: Key | undefined, limit: number) =>
      page('byCreator', 'creatorId = :id', { ':id': creatorId }, { startKey, limit }),

    listByCampaign: (campaignId: string, startKey: Key | undefined, limit: number) =>
      page('byCampaign', 'campaignId = :id', { ':id': campaignId }, { startKey, limit }),

    listPublic: (startKey: Key | undefined, limit: number) =>
      page('byListing', 'listing = :public', { ':public': 'public' }, { startKey, limit }),

    listVersions: (conceptId: string): Promise<DatasetRecord[]> =>
      readAll((startKey) => page('byConcept', 'conceptId = :id', { ':id': conceptId }, { startKey })),
  };
};
