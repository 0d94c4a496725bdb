import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { type EnvSource, readOneOfEnv } from '../../_shared/env';
import type { SecretBox } from '../domain/ports';

/**
 * Where webhooks' signing secrets are sealed (docs/decisions/056-webhook-secrets-and-targets.md). Exactly one is set:
 * - WEBHOOK_SECRETS_KEY_ARN: the environment's KMS key (the CDK sets it; the key never leaves KMS);
 * - WEBHOOK_SECRETS_LOCAL_KEY: 32 random bytes, base64 (only the local stack sets it; there is no KMS here).
 */
export const SECRET_BOX_ENV = {
  keyArn: 'WEBHOOK_SECRETS_KEY_ARN',
  localKey: 'WEBHOOK_SECRETS_LOCAL_KEY',
} as const;

export type SecretBoxSource = { keyArn: string } | { localKey: string };

/** Reads which box the environment seals with; throws at cold start when neither or both are set. */
export const readSecretBoxEnv = (env?: EnvSource): SecretBoxSource => readOneOfEnv(SECRET_BOX_ENV, env);

/** KMS Encrypt and Decrypt, bound to the webhook through the encryption context (a sealed secret moved is refused). */
export const createKmsSecretBox = ({ kms, keyArn }: { kms: KMSClient; keyArn: string }): SecretBox => ({
  seal: async (secret, webhookId) => {
    const { CiphertextBlob } = await kms.send(
      new EncryptCommand({
        KeyId: keyArn,
        Plaintext: Buffer.from(secret, 'utf8'),
        EncryptionContext: { webhookId },
      }),
    );
    return `kms:${Buffer.from(CiphertextBlob!).toString('base64')}`;
  },
  open: async (sealed, webhookId) => {
    if (!sealed.startsWith('kms:')) throw new Error(`The secret of ${webhookId} was not sealed by KMS`);
    const { Plaintext } = await kms.send(
      new DecryptCommand({
        KeyId: keyArn,
        CiphertextBlob: Buffer.from(sealed.slice(4), 'base64'),
        EncryptionContext: { webhookId },
      }),
    );
    return Buffer.from(Plaintext!).toString('utf8');
  },
});

/** AES-256-GCM with a key of the local stack's, the webhook's id as additional data: what KMS does, on one machine. */
export const createLocalSecretBox = (localKey: string): SecretBox => {
  const key = Buffer.from(localKey, 'base64');
  if (key.length !== 32) throw new Error(`${SECRET_BOX_ENV.localKey} must be 32 bytes, base64`);
  return {
    seal: async (secret, webhookId) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(webhookId));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `local:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
    },
    open: async (sealed, webhookId) => {
      if (!sealed.startsWith('local:')) throw new Error(`The secret of ${webhookId} was not sealed locally`);
      const bytes = Buffer.from(sealed.slice(6), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12))
        .setAAD(Buffer.from(webhookId))
        .setAuthTag(bytes.subarray(12, 28));
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
};
