import { CognitoIdentityClient } from '@aws-sdk/client-cognito-identity';
import { IoTClient } from '@aws-sdk/client-iot';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { LOCAL_ENV_NAME } from '../../../shared/config/environment-names';
import { clientSettings } from '../../_shared/clients';
import { type EnvSource, readAuthEnv, readEnv } from '../../_shared/env';
import { traced } from '../../_shared/tracing';
import { createLive } from '../domain/live-watches';
import { createCloudRealtimeIdentity, createLocalRealtimeIdentity } from '../store/live-identity';
import { createLiveWatchesStore } from '../store/live-watches-store';
import type { CommonDeps } from './common';

/**
 * What the live part reads, with the area's API at cold start (the worker has no live part). ENV_NAME names the
 * topics' first level and the home: the local stack's broker takes the person's own token, every cloud environment
 * gives a Cognito identity an IoT Core policy, so it must name the identity pool (IDENTITY_POOL_ID) and the token
 * issuer its identities are of.
 */
export const readLiveEnv = (env?: EnvSource) => {
  const { envName } = readEnv({ envName: 'ENV_NAME' }, env);
  if (envName === LOCAL_ENV_NAME) return { envName, cloud: undefined };
  const { identityPoolId } = readEnv({ identityPoolId: 'IDENTITY_POOL_ID' }, env);
  return { envName, cloud: { identityPoolId, auth: readAuthEnv(env) } };
};

export type LiveEnv = ReturnType<typeof readLiveEnv>;

/** The live part's dependencies. Its IoT and Cognito-identity clients are built at the first call that needs them. */
export const createLiveDeps = (common: CommonDeps, { envName, cloud }: LiveEnv) => {
  let cognito: CognitoIdentityClient | undefined;
  let iot: IoTClient | undefined;
  return {
    live: createLive({
      dataAccess: common.dataAccess,
      identity: cloud
        ? createCloudRealtimeIdentity({
            identityPoolId: cloud.identityPoolId,
            issuer: cloud.auth.issuer,
            verifyToken: createTokenVerifier(cloud.auth),
            cognitoIdentity: () => (cognito ??= traced(new CognitoIdentityClient(clientSettings('COGNITO_IDENTITY')))),
            iot: () => (iot ??= traced(new IoTClient(clientSettings('IOT')))),
          })
        : createLocalRealtimeIdentity(),
      watches: createLiveWatchesStore({ db: common.db, tableName: common.env.liveWatchesTable }),
      envName,
      now: common.now,
    }),
  };
};
