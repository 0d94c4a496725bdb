import { CognitoIdentityClient } from '@aws-sdk/client-cognito-identity';
import { IoTClient } from '@aws-sdk/client-iot';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { LOCAL_ENV_NAME } from '../../../shared/config/environment-names';
import { clientSettings } from '../../_shared/clients';
import { readAuthEnv, readEnv } from '../../_shared/env';
import { traced } from '../../_shared/tracing';
import { createLive } from '../domain/live-watches';
import { createCloudRealtimeIdentity, createLocalRealtimeIdentity } from '../store/live-identity';
import { createLiveWatchesStore } from '../store/live-watches-store';
import type { CommonDeps } from './common';

/**
 * The live part's dependencies. ENV_NAME names the topics' first level and the home: the local stack's broker takes
 * the person's own token, every cloud environment gives a Cognito identity an IoT Core policy, so it must name the
 * identity pool (IDENTITY_POOL_ID). Read when the part is first used, so an area whose Lambda lacks them fails on a
 * live route, with the names, instead of on every route.
 */
export const createLiveDeps = (common: CommonDeps) => {
  let live: ReturnType<typeof createLive> | undefined;
  return {
    live: () => {
      if (live) return live;
      const { envName } = readEnv({ envName: 'ENV_NAME' });
      let cognito: CognitoIdentityClient | undefined;
      let iot: IoTClient | undefined;
      const identity =
        envName !== LOCAL_ENV_NAME
          ? createCloudRealtimeIdentity({
              identityPoolId: readEnv({ identityPoolId: 'IDENTITY_POOL_ID' }).identityPoolId,
              issuer: readAuthEnv().issuer,
              verifyToken: createTokenVerifier(readAuthEnv()),
              cognitoIdentity: () =>
                (cognito ??= traced(new CognitoIdentityClient(clientSettings('COGNITO_IDENTITY')))),
              iot: () => (iot ??= traced(new IoTClient(clientSettings('IOT')))),
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
