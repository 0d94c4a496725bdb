import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Files } from '../../_shared/s3-files';

/** The user backups bucket (PUT /backupUserPool/): JSON exports, private, versioned in the cloud. */
export const createBackupStore = ({ s3, bucket }: { s3: S3Client; bucket: string }) => {
  const files = createS3Files({ s3, bucket });
  return {
    bucket,
    putJson: (key: string, value: unknown): Promise<void> =>
      files.put(key, `${JSON.stringify(value, null, 2)}\n`, {
        ContentType: 'application/json',
        // Exports hold personal data: encrypted at rest whatever the bucket's default.
        ServerSideEncryption: 'AES256',
      }),
  };
};

export type BackupStore = ReturnType<typeof createBackupStore>;
