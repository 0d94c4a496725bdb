import { ACCESS_ENV, createAccessModule } from '../../functions/_shared/access/access-wiring';
import { getDocumentClient } from '../../functions/_shared/clients';
import { createCredentialVerifier } from '../../functions/_shared/devices/credential-verifier';
import { readEnv } from '../../functions/_shared/env';
import { log } from '../../functions/_shared/logger';
import { createDataAccess } from '../../functions/_shared/sensor-data/data-access';
import { createDeviceTiers } from '../../functions/_shared/sensor-data/device-tier';
import {
  createMqttAuthorizer,
  type IotPolicyDocument,
  policyAllows,
} from '../../functions/data-ingress/domain/mqtt-authorizer';
import { type Caller, createTokenVerifier } from '../../shared/auth/verify-token';
import { localIdentityId, parseWatcherTopic } from '../../shared/iot/realtime';
import { firmwareStatusRuleName, readingsRuleName } from '../../shared/iot/topics';

/** Who holds a connection to the local broker. */
export type MqttPrincipal =
  | {
      kind: 'device';
      deviceId: string;
      credential: string;
      /** The authorizer's principal id, which the rule bridge hands the rules as `principal()` would. */
      principalId: string;
      /** The policies the authorizer answered for this connection. */
      policies: IotPolicyDocument[];
    }
  | { kind: 'browser'; identityId: string; caller: Caller };

export interface MqttAuthDeps {
  /** The environment's name (`local`): the first level of watcher topics. */
  envName: string;
  /** A device's ingress credential (`dc_…`) → its device id, or undefined. */
  verifyDeviceCredential: (token: string) => Promise<string | undefined>;
  /** The start of the IoT resources in the authorizer's policies (IOT_ARN_PREFIX). */
  iotArnPrefix: string;
  /** A person's access token → the caller; throws when refused. */
  verifyToken: (token: string) => Promise<Caller>;
  /** The caller's realtime identity id (`local:{sub}` locally). */
  identityOf: (caller: Caller) => string;
  /** Whether the caller may view the device's data (the data-access rule the API uses: public devices too). */
  mayView: (caller: Caller, deviceId: string) => Promise<boolean>;
}

/**
 * The local broker's stand-in for IoT Core's authentication and policies, the same rules the cloud applies:
 * - a device connects with username = client id = its id and password = its ingress credential: the cloud's custom
 *   authorizer use case decides (functions/data-ingress/domain/mqtt-authorizer.ts), and its policy is applied to
 *   each publish and subscription; it publishes only to its own `devices/{id}/readings|status|firmware-status` (and
 *   their rules' Basic Ingest topics, `$aws/rules/DataIngressReadings_local/devices/{id}/readings` and
 *   `$aws/rules/DataIngressFirmwareStatus_local/devices/{id}/firmware-status`) and subscribes to nothing (no
 *   device topic carries commands yet);
 * - a browser connects with username = its realtime identity and password = its access token; it publishes
 *   nothing and subscribes only to its own identity's watcher topics, and only for devices it may view — defence
 *   in depth behind the watch the API registered;
 * - anything else is refused.
 */
export const createMqttAuth = (deps: MqttAuthDeps) => {
  const authorizer = createMqttAuthorizer({
    verifyCredential: deps.verifyDeviceCredential,
    iotArnPrefix: deps.iotArnPrefix,
    // The same rule names the CDK gives the environment's ingest rules (their Basic Ingest topics, decision 043).
    rules: { readings: readingsRuleName(deps.envName), firmwareStatus: firmwareStatusRuleName(deps.envName) },
    refused: (reason, fields) => log('warn', `MQTT connection refused: ${reason}`, fields),
  });
  const resource = (kind: 'topic' | 'topicfilter', name: string) => `${deps.iotArnPrefix}:${kind}/${name}`;
  return {
    authenticate: async (
      username: string | undefined,
      password: string | undefined,
      clientId?: string,
    ): Promise<MqttPrincipal | undefined> => {
      if (!username || !password) return undefined;
      if (password.startsWith('dc_')) {
        // What IoT Core hands the authorizer: the password base64-encoded.
        const answer = await authorizer.authorize({
          protocols: ['mqtt'],
          protocolData: { mqtt: { username, password: Buffer.from(password, 'utf8').toString('base64'), clientId } },
        });
        return answer.isAuthenticated
          ? {
              kind: 'device',
              deviceId: username.split('?', 1)[0]!,
              credential: password,
              principalId: answer.principalId,
              policies: answer.policyDocuments,
            }
          : undefined;
      }
      let caller: Caller;
      try {
        caller = await deps.verifyToken(password);
      } catch {
        return undefined;
      }
      if (caller.tokenUse !== 'access' || deps.identityOf(caller) !== username) return undefined;
      return { kind: 'browser', identityId: username, caller };
    },

    /**
     * Each publish checks the credential again, as the HTTPS path checks it on each request: a credential revoked
     * while the device stays connected stops its next message (issue 19).
     */
    mayPublish: async (principal: MqttPrincipal, topic: string): Promise<boolean> => {
      if (principal.kind !== 'device') return false;
      // IoT Core reads `+`, `#` and `*` in a topic name literally; a policy's `*` would match them, so refuse them here.
      if (/[+#*]/.test(topic) || !policyAllows(principal.policies, 'iot:Publish', resource('topic', topic)))
        return false;
      return (await deps.verifyDeviceCredential(principal.credential)) === principal.deviceId;
    },

    maySubscribe: async (principal: MqttPrincipal, topicFilter: string): Promise<boolean> => {
      if (principal.kind === 'device') {
        return policyAllows(principal.policies, 'iot:Subscribe', resource('topicfilter', topicFilter));
      }
      // A wildcard is never a watcher topic: a browser names exactly the topic the API gave it.
      const watched = parseWatcherTopic(topicFilter);
      if (!watched || watched.env !== deps.envName || watched.identityId !== principal.identityId) return false;
      return deps.mayView(principal.caller, watched.deviceId);
    },
  };
};

export type MqttAuth = ReturnType<typeof createMqttAuth>;

/**
 * The broker's rules over the local stack's own modules: the devices area's credential verifier, the token verifier
 * the API uses, and the sensor-data data access (the access module and the public-data rule). Called once the
 * tables, user pool and environment variables exist.
 */
export const createLocalMqttAuth = ({
  envName,
  issuer,
  clientIds,
  devicesTable,
  deviceCredentialsTable,
  deviceSubscriptionsTable,
  parametersTable,
  iotArnPrefix,
}: {
  envName: string;
  iotArnPrefix: string;
  issuer: string;
  clientIds: string[];
  devicesTable: string;
  deviceCredentialsTable: string;
  deviceSubscriptionsTable: string;
  parametersTable: string;
}): MqttAuth => {
  const db = getDocumentClient();
  const credentials = createCredentialVerifier({ db, tableName: deviceCredentialsTable });
  const dataAccess = createDataAccess({
    db,
    devicesTable,
    access: createAccessModule(readEnv(ACCESS_ENV)),
    tiers: createDeviceTiers({ db, tableName: deviceSubscriptionsTable, parametersTable }),
  });
  return createMqttAuth({
    envName,
    verifyDeviceCredential: credentials.verifyCredential,
    iotArnPrefix,
    verifyToken: createTokenVerifier({ issuer, clientIds }),
    identityOf: (caller) => localIdentityId(caller.sub),
    mayView: (caller, deviceId) =>
      dataAccess.resolve(caller, deviceId).then(
        () => true,
        () => false,
      ),
  });
};
