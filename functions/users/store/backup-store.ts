import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/** The user backups bucket (PUT /backupUserPool/): JSON exports, private, versioned in the cloud. */
export const createBackupStore = ({ s3, bucket }: { s3: S3Client; bucket: string }) => ({
  bucket,
  putJson: async (key: string, value: unknown): Promise<void> => {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: `${JSON.stringify(value, null, 2)}\n`,
        ContentType: 'application/json',
        // Exports hold personal data: encrypted at rest whatever the bucket's default.
        ServerSideEncryption: 'AES256',
      }),
    );
  },
});

export type BackupStore = ReturnType<typeof createBackupStore>;
