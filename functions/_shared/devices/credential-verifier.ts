import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../dynamodb';
import { parseToken, secretMatches } from './credential-token';

/** How often a credential's lastUsed is written: once a minute is enough to show "last used". */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CredentialVerifierOptions {
  db: DynamoDBDocumentClient;
  /** DEVICE_CREDENTIALS_TABLE */
  tableName: string;
  /** Writes lastUsed (at most once a minute per credential); needs write access to the table. @default false */
  recordUse?: boolean;
  now?: () => number;
}

/**
 * For data ingress (issue 6): which device presents this token? A retired device's credentials are deleted
 * when it retires, so a token that verifies belongs to a device that may send data.
 */
export const createCredentialVerifier = ({
  db,
  tableName,
  recordUse = false,
  now = Date.now,
}: CredentialVerifierOptions) => {
  /**
   * The credential's "last used", written only when the one read shows it older than a minute: a device that sends
   * every second costs one conditional write a minute, not one a request.
   */
  const noteUse = async (credentialId: string, item: Record<string, unknown>): Promise<void> => {
    if (!recordUse) return;
    const at = now();
    const stale = at - LAST_USED_RESOLUTION_MS;
    if (typeof item.lastUsed === 'number' && item.lastUsed >= stale) return;
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { credentialId },
          UpdateExpression: 'SET lastUsed = :at',
          ConditionExpression:
            'attribute_exists(credentialId) AND (attribute_not_exists(lastUsed) OR lastUsed < :stale)',
          ExpressionAttributeValues: { ':at': at, ':stale': stale },
        }),
      );
    } catch (error) {
      // Recorded meanwhile by another request, or revoked since the read: neither changes the answer.
      if (!isConditionFailure(error)) throw error;
    }
  };

  return {
    /** @returns the device id, or undefined for a malformed, unknown, revoked or wrong token */
    verifyCredential: async (token: unknown): Promise<string | undefined> => {
      const parsed = parseToken(token);
      if (!parsed) return undefined;
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: { credentialId: parsed.credentialId }, ConsistentRead: true }),
      );
      if (!Item || !secretMatches(parsed.secret, Item.secretHash) || typeof Item.deviceId !== 'string')
        return undefined;
      await noteUse(parsed.credentialId, Item);
      return Item.deviceId;
    },

    /**
     * The device a credential still belongs to, by its id alone: for a message whose connection already proved the
     * secret (the MQTT authorizer), so that a credential revoked since then is refused on its next message.
     * @returns undefined once the credential is revoked (deleted) or never existed
     */
    deviceOfCredential: async (credentialId: string): Promise<string | undefined> => {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: { credentialId }, ConsistentRead: true }),
      );
      if (typeof Item?.deviceId !== 'string') return undefined;
      await noteUse(credentialId, Item);
      return Item.deviceId;
    },
  };
};

export type CredentialVerifier = ReturnType<typeof createCredentialVerifier>;

/** The HTTPS chain's device authenticator over a verifier: the device a token proves, as the chain's principal. */
export const devicePrincipalOf =
  (verifier: Pick<CredentialVerifier, 'verifyCredential'>) =>
  async (token: string): Promise<{ deviceId: string } | undefined> => {
    const deviceId = await verifier.verifyCredential(token);
    return deviceId ? { deviceId } : undefined;
  };
