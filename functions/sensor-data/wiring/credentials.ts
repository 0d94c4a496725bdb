import { getDocumentClient } from '../../_shared/clients';
import { newSecret } from '../../_shared/devices/credential-token';
import type { CredentialAuthenticators } from '../../_shared/http/http-area';
import { newKeyId } from '../domain/api-key-token';
import { createApiKeys } from '../domain/api-keys';
import { createApiKeyStore } from '../store/api-key-store';
import type { SensorDataEnv } from './common';

/**
 * The public API's key authenticator: the key's owner as a caller without groups (functions/sensor-data/domain/
 * api-keys.ts says why); the chain then applies the owner's session (a disabled owner's keys stop working).
 */
export const sensorDataCredentials = (env: SensorDataEnv): CredentialAuthenticators => ({
  apiKey: () => {
    const keys = createApiKeys({
      store: createApiKeyStore({ db: getDocumentClient(), tableName: env.apiKeysTable }),
      now: Date.now,
      newKeyId,
      newSecret,
    });
    return keys.authenticate;
  },
});
