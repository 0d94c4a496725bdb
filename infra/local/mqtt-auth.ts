import { ACCESS_ENV, createAccessModule } from '../../functions/_shared/access/access-wiring';
import { getDocumentClient } from '../../functions/_shared/clients';
import { createCredentialVerifier } from '../../functions/_shared/devices/credential-verifier';
import { readEnv } from '../../functions/_shared/env';
import { createDataAccess } from '../../functions/_shared/sensor-data/data-access';
import { createDeviceTiers } from '../../functions/_shared/sensor-data/device-tier';
import { type Caller, createTokenVerifier } from '../../shared/auth/verify-token';
import { localIdentityId, parseWatcherTopic } from '../../shared/iot/realtime';
import { deviceIdOfTopic } from '../../shared/iot/topics';

/** Who holds a connection to the local broker. */
export type MqttPrincipal =
  | { kind: 'device'; deviceId: string; credential: string }
  | { kind: 'browser'; identityId: string; caller: Caller };

export interface MqttAuthDeps {
  /** The environment's name (`local`): the first level of watcher topics. */
  envName: string;
  /** A device's ingress credential (`dc_…`) → its device id, or undefined. */
  verifyDeviceCredential: (token: string) => Promise<string | undefined>;
  /** A person's access token → the caller; throws when refused. */
  verifyToken: (token: string) => Promise<Caller>;
  /** The caller's realtime identity id (`local:{sub}` locally). */
  identityOf: (caller: Caller) => string;
  /** Whether the caller may view the device's data (the data-access rule the API uses: public devices too). */
  mayView: (caller: Caller, deviceId: string) => Promise<boolean>;
}

/** What a device may publish to: its own readings and status. */
const DEVICE_PUBLISH_CHANNELS = new Set(['readings', 'status']);

/**
 * The local broker's stand-in for IoT Core's authentication and policies, the same rules the cloud applies:
 * - a device connects with username = its id and password = its ingress credential, and publishes only to its own
 *   `devices/{id}/readings|status`; it may subscribe below its own `devices/{id}/` (for commands to come);
 * - a browser connects with username = its realtime identity and password = its access token; it publishes
 *   nothing and subscribes only to its own identity's watcher topics, and only for devices it may view — defence
 *   in depth behind the watch the API registered;
 * - anything else is refused.
 */
export const createMqttAuth = (deps: MqttAuthDeps) => ({
  authenticate: async (
    username: string | undefined,
    password: string | undefined,
  ): Promise<MqttPrincipal | undefined> => {
    if (!username || !password) return undefined;
    if (password.startsWith('dc_')) {
      const deviceId = await deps.verifyDeviceCredential(password);
      return deviceId !== undefined && deviceId === username
        ? { kind: 'device', deviceId, credential: password }
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
    const [root, id, channel, ...rest] = topic.split('/');
    const ownTopic =
      root === 'devices' &&
      rest.length === 0 &&
      deviceIdOfTopic(topic) === principal.deviceId &&
      id === principal.deviceId &&
      DEVICE_PUBLISH_CHANNELS.has(channel ?? '');
    return ownTopic && (await deps.verifyDeviceCredential(principal.credential)) === principal.deviceId;
  },

  maySubscribe: async (principal: MqttPrincipal, topicFilter: string): Promise<boolean> => {
    if (principal.kind === 'device') {
      const own = `devices/${principal.deviceId}/`;
      return topicFilter.startsWith(own) && topicFilter.length > own.length && !/[+]/.test(topicFilter);
    }
    // A wildcard is never a watcher topic: a browser names exactly the topic the API gave it.
    const watched = parseWatcherTopic(topicFilter);
    if (!watched || watched.env !== deps.envName || watched.identityId !== principal.identityId) return false;
    return deps.mayView(principal.caller, watched.deviceId);
  },
});

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
}: {
  envName: string;
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
    verifyToken: createTokenVerifier({ issuer, clientIds }),
    identityOf: (caller) => localIdentityId(caller.sub),
    mayView: (caller, deviceId) =>
      dataAccess.resolve(caller, deviceId).then(
        () => true,
        () => false,
      ),
  });
};
