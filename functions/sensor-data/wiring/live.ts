import { CognitoIdentityClient } from '@aws-sdk/client-cognito-identity';
import { IoTClient } from '@aws-sdk/client-iot';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { clientSettings } from '../../_shared/clients';
import { readAuthEnv, readEnv } from '../../_shared/env';
import type { CommonDeps } from '../deps';
import { createLive } from '../domain/live-watches';
import { createCloudRealtimeIdentity, createLocalRealtimeIdentity } from '../store/live-identity';
import { createLiveWatchesStore } from '../store/live-watches-store';

/**
 * The live part's dependencies. ENV_NAME names the topics' first level; IDENTITY_POOL_ID (cloud only) switches the
 * realtime identity to Cognito identities and IoT Core policies. Read when the part is first used, so an area whose
 * Lambda lacks them fails on a live route, with the names, instead of on every route.
 */
export const createLiveDeps = (common: CommonDeps) => {
  let live: ReturnType<typeof createLive> | undefined;
  return {
    live: () => {
      if (live) return live;
      const { envName } = readEnv({ envName: 'ENV_NAME' });
      const identityPoolId = process.env.IDENTITY_POOL_ID;
      let cognito: CognitoIdentityClient | undefined;
      let iot: IoTClient | undefined;
      const identity = identityPoolId
        ? createCloudRealtimeIdentity({
            identityPoolId,
            issuer: readAuthEnv().issuer,
            verifyToken: createTokenVerifier(readAuthEnv()),
            cognitoIdentity: () => (cognito ??= new CognitoIdentityClient(clientSettings('COGNITO_IDENTITY'))),
            iot: () => (iot ??= new IoTClient(clientSettings('IOT'))),
          })
        : createLocalRealtimeIdentity();
      live = createLive({
        dataAccess: common.dataAccess,
        identity,
        watches: createLiveWatchesStore({ db: common.db, tableName: common.env.liveWatchesTable }),
        envName,
        now: common.now,
      });
      return live;
    },
  };
};
