import type { S3Client } from '@aws-sdk/client-s3';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import type { RolloutTargets } from '../../_shared/code-releases/rollout-targets';
import { createS3Files } from '../../_shared/s3-files';
import type { FirmwareRecords, OfferedArtifact } from '../domain/firmware-offer';

/**
 * Read-only: the devices record (this area writes only what ingest writes), the code-releases area's rollouts, releases
 * and the device's target.
 */
export const createFirmwareRecords = ({
  db,
  devicesTable,
  rolloutsTable,
  releasesTable,
  targets,
}: {
  db: DynamoDBDocumentClient;
  devicesTable: string;
  rolloutsTable: string;
  releasesTable: string;
  targets: Pick<RolloutTargets, 'get'>;
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
    // Consistent: a halt, or a stage's start, must count from the very next request, not after replicas catch up.
    rollout: async (rolloutId) => {
      const item = (
        await db.send(
          new GetCommand({
            TableName: rolloutsTable,
            Key: { id: rolloutId },
            ProjectionExpression: '#status, currentStage, artifact',
            ExpressionAttributeNames: { '#status': 'status' },
            ConsistentRead: true,
          }),
        )
      ).Item;
      return item
        ? {
            status: String(item.status),
            ...(typeof item.currentStage === 'number' ? { currentStage: item.currentStage } : {}),
            ...(item.artifact ? { artifact: item.artifact as OfferedArtifact } : {}),
          }
        : undefined;
    },
    artifact: async (releaseId) => (await get(releasesTable, releaseId, ['artifact']))?.artifact,
    target: targets.get,
  };
};

/** A presigned GET of an artifact in the releases bucket (this function may only read it). */
export const createArtifactDownloads = ({ s3, bucket }: { s3: S3Client; bucket: string }) => {
  const files = createS3Files({ s3, bucket });
  return (key: string, fileName: string, expiresInSeconds: number): Promise<string> =>
    files.downloadUrl(key, expiresInSeconds, { fileName });
};
