import { DEVICE_TOPICS, firmwareStatusIngestTopic, readingsIngestTopic } from '../../../shared/iot/topics';

/**
 * IoT Core's custom authorizer for devices (docs/decisions/031-mqtt-custom-authorizer.md): a device connects over
 * MQTT with username = its device id, password = the credential a person created on its page (`dc_….…`), and client
 * id = its device id. The credential is checked by the same verifier as `POST /data-ingress/readings`; the answer is
 * a policy that lets the connection publish only to the device's own topics.
 */

/** What IoT Core hands the authorizer for an MQTT CONNECT (fields it leaves out when the device sent none). */
export interface MqttAuthorizerEvent {
  protocols?: string[];
  protocolData?: {
    mqtt?: {
      username?: string;
      /** Base64, as IoT Core encodes it. */
      password?: string;
      clientId?: string;
    };
  };
  connectionMetadata?: { id?: string };
}

export interface IotPolicyStatement {
  Effect: 'Allow';
  Action: string[];
  Resource: string[];
}

export interface IotPolicyDocument {
  Version: '2012-10-17';
  Statement: IotPolicyStatement[];
}

export type MqttAuthorizerResponse =
  | {
      isAuthenticated: true;
      principalId: string;
      disconnectAfterInSeconds: number;
      refreshAfterInSeconds: number;
      policyDocuments: IotPolicyDocument[];
    }
  | { isAuthenticated: false };

/**
 * IoT Core's smallest refresh: every five minutes it asks again, so a revoked credential loses its connection's
 * rights within five minutes; its readings are refused at once by the ingest rule (see `liveCredentialOf`).
 */
export const REFRESH_AFTER_SECONDS = 300;
/** IoT Core's longest connection under a custom authorizer (24 h); the device then connects again. */
export const DISCONNECT_AFTER_SECONDS = 86_400;

/**
 * Device ids as the devices contract allows them (letters, digits, `. _ : -`). Checked again here because the id is
 * written into policy resources, where `*`, `?` and `${…}` would widen them.
 */
const DEVICE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The IoT principal id of a credential: IoT Core accepts only `[a-zA-Z0-9]{1,128}`, so the id is hex-encoded. */
export const principalIdOf = (credentialId: string): string => Buffer.from(credentialId, 'utf8').toString('hex');

/** The credential id behind an IoT principal id of ours, or undefined for any other principal (a certificate's). */
export const credentialIdOfPrincipal = (principal: unknown): string | undefined => {
  if (typeof principal !== 'string' || !/^([0-9a-f]{2}){1,64}$/.test(principal)) return undefined;
  const decoded = Buffer.from(principal, 'hex').toString('utf8');
  return /^dc_[A-Za-z0-9_-]{1,60}$/.test(decoded) ? decoded : undefined;
};

/** The user name without the query string IoT Core lets a device add (`{id}?x-amz-customauthorizer-name=…`). */
const deviceIdOfUsername = (username: string): string => username.split('?', 1)[0]!;

const decodePassword = (password: string): string | undefined => {
  // Node's decoder skips characters outside the alphabet; a strict check first, so garbage is not half-read.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(password) || password.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(password, 'base64').toString('utf8');
  return decoded.length > 0 ? decoded : undefined;
};

/** The environment's ingest rules whose Basic Ingest topics a device may publish to (decision 043). */
export interface IngestRules {
  readings: string;
  firmwareStatus: string;
}

/**
 * The policy of one device's connection: connect as itself, publish to its own topics (through the broker, and its
 * readings and firmware reports through the environment's rules' Basic Ingest topics, decision 043), nothing else.
 */
export const devicePolicy = (iotArnPrefix: string, deviceId: string, rules: IngestRules): IotPolicyDocument => ({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Action: ['iot:Connect'], Resource: [`${iotArnPrefix}:client/${deviceId}`] },
    {
      Effect: 'Allow',
      Action: ['iot:Publish'],
      Resource: [
        ...DEVICE_TOPICS.map((channel) => `${iotArnPrefix}:topic/devices/${deviceId}/${channel}`),
        `${iotArnPrefix}:topic/${readingsIngestTopic(rules.readings, deviceId)}`,
        `${iotArnPrefix}:topic/${firmwareStatusIngestTopic(rules.firmwareStatus, deviceId)}`,
      ],
    },
  ],
});

/**
 * Whether policies allow an action on a resource, the way IoT Core reads them (`*` matches any characters). Only
 * Allow statements exist in ours, so any match allows. The local broker applies the authorizer's answer with it.
 */
export const policyAllows = (documents: readonly IotPolicyDocument[], action: string, resource: string): boolean =>
  documents.some((document) =>
    document.Statement.some(
      (statement) =>
        statement.Effect === 'Allow' &&
        statement.Action.includes(action) &&
        statement.Resource.some((pattern) =>
          new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(resource),
        ),
    ),
  );

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface MqttAuthorizerDeps {
  /** The HTTPS ingest's credential check: the device id of a live credential, else undefined. */
  verifyCredential: (token: string) => Promise<string | undefined>;
  /** `arn:{partition}:iot:{region}:{account}`, the start of every resource in the policy. */
  iotArnPrefix: string;
  /** The environment's ingest rules (`iotRuleName`), whose Basic Ingest topics the policy opens. */
  rules: IngestRules;
  /** Logs a refusal (never the password). */
  refused: (reason: string, fields: Record<string, unknown>) => void;
}

export const createMqttAuthorizer = ({ verifyCredential, iotArnPrefix, rules, refused }: MqttAuthorizerDeps) => ({
  authorize: async (event: MqttAuthorizerEvent): Promise<MqttAuthorizerResponse> => {
    const mqtt = event?.protocolData?.mqtt;
    const connectionId = event?.connectionMetadata?.id;
    const deny = (reason: string, fields: Record<string, unknown> = {}): MqttAuthorizerResponse => {
      refused(reason, { connectionId, ...fields });
      return { isAuthenticated: false };
    };
    if (!mqtt || typeof mqtt.username !== 'string' || typeof mqtt.password !== 'string') {
      return deny('no MQTT user name and password');
    }
    const deviceId = deviceIdOfUsername(mqtt.username);
    if (!DEVICE_ID.test(deviceId)) return deny('the user name is not a device id');
    // The client id is the device id, so one device cannot take over (disconnect) another's connection.
    if (mqtt.clientId !== deviceId) return deny('the client id is not the device id', { deviceId });
    const token = decodePassword(mqtt.password);
    if (!token) return deny('the password is not base64', { deviceId });
    const credentialOwner = await verifyCredential(token);
    if (credentialOwner !== deviceId) {
      return deny(credentialOwner ? 'the credential is another device’s' : 'unknown, revoked or wrong credential', {
        deviceId,
      });
    }
    return {
      isAuthenticated: true,
      // The token is `{credentialId}.{secret}`, checked above; the id names the connection (never the secret).
      principalId: principalIdOf(token.split('.', 1)[0]!),
      disconnectAfterInSeconds: DISCONNECT_AFTER_SECONDS,
      refreshAfterInSeconds: REFRESH_AFTER_SECONDS,
      policyDocuments: [devicePolicy(iotArnPrefix, deviceId, rules)],
    };
  },
});

export type MqttAuthorizer = ReturnType<typeof createMqttAuthorizer>;
