import { fetchAuthSession } from 'aws-amplify/auth';
import mqtt, { type MqttClient } from 'mqtt';
import { LOCAL_IDENTITY_PREFIX } from '../../../shared/iot/realtime';
import { accessToken } from './auth';
import { requireCurrentUser, requireRealtimeUrl } from './realtime-rules';
import { signRealtimeUrl } from './realtime-signing';
import { runtimeConfig } from './runtime-config';

/** One open MQTT-over-WebSocket connection of the signed-in user's realtime identity. */
export interface RealtimeConnection {
  /** Subscribes to one topic; the broker refuses topics that are not the identity's own. */
  subscribe: (topic: string, onMessage: (payload: string) => void) => Promise<void>;
  close: () => void;
  /** Called when the connection drops (the broker went away or refused us). */
  onDown: (listener: (reason: string) => void) => void;
}

/**
 * Opens the realtime connection for an identity the API gave (docs/sensor-data.md, "Live view").
 * Locally (`local:{sub}`): the local broker at `realtimeUrl`, user name = the identity, password = the access token.
 * In the cloud: IoT Core at `realtimeUrl`, a SigV4-presigned WSS URL from the identity pool's credentials, client id =
 * the identity id (IoTPolicyForCognito lets an identity connect only as itself).
 */
export const connectRealtime = async (identityId: string): Promise<RealtimeConnection> => {
  const url = requireRealtimeUrl(runtimeConfig().realtimeUrl);
  let client: MqttClient;
  if (identityId.startsWith(LOCAL_IDENTITY_PREFIX)) {
    const password = requireCurrentUser((await accessToken()) || undefined);
    client = await mqtt.connectAsync(url, {
      username: identityId,
      password,
      // The token is checked when connecting; a new one is needed for a new connection, so the page reconnects itself.
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
  } else {
    const session = await fetchAuthSession();
    // Credentials of another identity than the one the API watches for are no one to connect as either.
    const credentials = requireCurrentUser(session.identityId === identityId ? session.credentials : undefined);
    const signed = await signRealtimeUrl(url, runtimeConfig().region, credentials);
    // The signature lives 5 minutes: the page reconnects with a new one rather than the client reusing it.
    client = await mqtt.connectAsync(signed, { clientId: identityId, reconnectPeriod: 0, connectTimeout: 10_000 });
  }
  const handlers = new Map<string, (payload: string) => void>();
  client.on('message', (topic, payload) => handlers.get(topic)?.(payload.toString()));
  return {
    subscribe: async (topic, onMessage) => {
      handlers.set(topic, onMessage);
      await client.subscribeAsync(topic, { qos: 0 });
    },
    close: () => {
      handlers.clear();
      client.end(true);
    },
    onDown: (listener) => {
      client.on('close', () => listener('The live connection closed'));
    },
  };
};
