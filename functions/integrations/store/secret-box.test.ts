import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createKmsSecretBox, createLocalSecretBox, readSecretBoxEnv } from './secret-box';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('sealing webhooks’ secrets', () => {
  it('locally: opens what it sealed, for the same webhook only, and never stores the secret in the clear', async () => {
    const box = createLocalSecretBox(randomBytes(32).toString('base64'));
    const sealed = await box.seal(SECRET, 'wh_a');
    expect(sealed).not.toContain(SECRET.slice(6));
    expect(await box.open(sealed, 'wh_a')).toBe(SECRET);
    await expect(box.open(sealed, 'wh_b')).rejects.toThrow();
    await expect(createLocalSecretBox(randomBytes(32).toString('base64')).open(sealed, 'wh_a')).rejects.toThrow();
  });

  it('in the cloud: KMS Encrypt and Decrypt with the key, bound to the webhook by the encryption context', async () => {
    const kms = mockClient(KMSClient);
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('sealed-by-kms') });
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from(SECRET) });
    const box = createKmsSecretBox({
      kms: new KMSClient({ region: 'us-west-2' }),
      keyArn: 'arn:aws:kms:us-west-2:1:key/k',
    });
    const sealed = await box.seal(SECRET, 'wh_a');
    expect(sealed).toBe(`kms:${Buffer.from('sealed-by-kms').toString('base64')}`);
    expect(await box.open(sealed, 'wh_a')).toBe(SECRET);
    expect(kms.commandCalls(EncryptCommand)[0]!.args[0].input).toMatchObject({
      KeyId: 'arn:aws:kms:us-west-2:1:key/k',
      EncryptionContext: { webhookId: 'wh_a' },
    });
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input.EncryptionContext).toEqual({ webhookId: 'wh_a' });
    await expect(box.open('local:abc', 'wh_a')).rejects.toThrow('not sealed by KMS');
    kms.restore();
  });

  it('takes exactly one of the key ARN and the local key', () => {
    expect(readSecretBoxEnv({ WEBHOOK_SECRETS_KEY_ARN: 'arn' })).toEqual({ keyArn: 'arn' });
    expect(readSecretBoxEnv({ WEBHOOK_SECRETS_LOCAL_KEY: 'k' })).toEqual({ localKey: 'k' });
    expect(() => readSecretBoxEnv({})).toThrow('Missing environment variables');
    expect(() => readSecretBoxEnv({ WEBHOOK_SECRETS_KEY_ARN: 'a', WEBHOOK_SECRETS_LOCAL_KEY: 'k' })).toThrow(
      'not both',
    );
  });
});
