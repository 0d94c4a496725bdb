import type { S3Client } from '@aws-sdk/client-s3';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { createS3Files } from '../../_shared/s3-files';
import type { FirmwareRecords } from '../domain/firmware-offer';

/** Read-only: the devices record (this area writes only what ingest writes), the code-releases area's rollouts and releases. */
export const createFirmwareRecords = ({
  db,
  devicesTable,
  rolloutsTable,
  releasesTable,
}: {
  db: DynamoDBDocumentClient;
  devicesTable: string;
  rolloutsTable: string;
  releasesTable: string;
}): FirmwareRecords => {
  const get = async (table: string, id: string, fields: string[]) =>
    (
      await db.send(
        new GetCommand({
          TableName: table,
          Key: { id },
          ProjectionExpression: fields.map((_, i) => `#f${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(fields.map((field, i) => [`#f${i}`, field])),
        }),
      )
    ).Item;
  return {
    device: async (deviceId) => {
      const item = await get(devicesTable, deviceId, ['state', 'firmwareVersion', 'firmwareTarget']);
      return item
        ? {
            state: String(item.state),
            ...(typeof item.firmwareVersion === 'string' ? { firmwareVersion: item.firmwareVersion } : {}),
            ...(item.firmwareTarget ? { firmwareTarget: item.firmwareTarget as FirmwareTarget } : {}),
          }
        : undefined;
    },
    // Consistent: a halt must stop offers at once, not after the read replicas catch up.
    rolloutStatus: async (rolloutId) =>
      (
        await db.send(
          new GetCommand({
            TableName: rolloutsTable,
            Key: { id: rolloutId },
            ProjectionExpression: '#status',
            ExpressionAttributeNames: { '#status': 'status' },
            ConsistentRead: true,
          }),
        )
      ).Item?.status as string | undefined,
    artifact: async (releaseId) => (await get(releasesTable, releaseId, ['artifact']))?.artifact,
  };
};

/** A presigned GET of an artifact in the releases bucket (this function may only read it). */
export const createArtifactDownloads = ({ s3, bucket }: { s3: S3Client; bucket: string }) => {
  const files = createS3Files({ s3, bucket });
  return (key: string, fileName: string, expiresInSeconds: number): Promise<string> =>
    files.downloadUrl(key, expiresInSeconds, { fileName });
};
