import mqtt, { type MqttClient } from 'mqtt';
import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import type { DeviceConnection } from '../../shared/iot/device-connection';
import type { DeviceLink, LinkOutcome } from './demo-simulator';

/**
 * How a demo device sends its batches: exactly what the device page's "How a device sends its data" tells a person
 * to configure (docs/devices.md, "Ingress credentials"), with the device's own credential, so a batch meets the same
 * authentication and checks as any device's.
 */

/** Past this a request or publish has failed, and the batch waits for the next minute. */
const ANSWER_TIMEOUT_MS = 15_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const rejectedOf = (answer: string): { message: string }[] => {
  try {
    return (JSON.parse(answer) as { rejected?: { message: string }[] }).rejected ?? [];
  } catch {
    return [];
  }
};

/** `POST {data-ingress}/readings` with `Authorization: Bearer {token}`; the answer's status says what to do next. */
export const httpsLink = (url: string, token: string): DeviceLink => ({
  kind: 'https',
  send: async (readings): Promise<LinkOutcome> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ readings }),
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
    } catch (error) {
      return { outcome: 'retry', detail: messageOf(error) };
    }
    const text = await response.text().catch(() => '');
    if (response.ok) {
      // Some readings of a stored batch refused: the device's own fault, worth a line, not a resend.
      const rejected = rejectedOf(text);
      return rejected.length
        ? { outcome: 'sent', detail: `${rejected.length} readings refused: ${rejected[0]!.message}` }
        : { outcome: 'sent' };
    }
    const detail = `${response.status} ${text.slice(0, 200)}`;
    // 401: the credential is revoked or wrong; 403: the device is retired or unknown (docs/sensor-data.md).
    if (response.status === 401 || response.status === 403) return { outcome: 'refused', detail };
    if (response.status === 429 || response.status >= 500) return { outcome: 'retry', detail };
    return { outcome: 'dropped', detail };
  },
  close: async () => undefined,
});

/** A QoS 1 publish, answered by the broker's PUBACK, or failed when the connection closes first. */
const publishOrClose = (client: MqttClient, topic: string, payload: string) =>
  new Promise<void>((resolve, reject) => {
    const closed = () => reject(new Error('the broker closed the connection'));
    client.once('close', closed);
    client
      .publishAsync(topic, payload, { qos: 1 })
      .then(() => resolve(), reject)
      .finally(() => client.removeListener('close', closed));
  });

/** MQTT 3.1.1 CONNACK codes for a bad user name or password and for not authorized: the credential is refused. */
const REFUSED_CODES = new Set([4, 5]);

/**
 * One MQTT connection (user name and client id = the device id, password = the token), made when a batch is to be
 * sent and made again after it drops; each batch is published with QoS 1 to the connection's topic (the readings'
 * Basic Ingest topic, decision 043). A broker that closes the connection instead of answering (an unauthorized
 * publish: a credential revoked while connected) makes it a retry, and the next connection is refused.
 */
export const mqttLink = (connection: NonNullable<DeviceConnection['mqtt']>, token: string): DeviceLink => {
  let client: MqttClient | undefined;
  const drop = async () => {
    const old = client;
    client = undefined;
    await old?.endAsync(true).catch(() => undefined);
  };
  const within = <T>(promise: Promise<T>, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${what}: no answer`)), ANSWER_TIMEOUT_MS).unref(),
      ),
    ]);
  return {
    kind: 'mqtt',
    send: async (readings: readonly StoredReading[]): Promise<LinkOutcome> => {
      if (!client?.connected) {
        await drop();
        try {
          client = await within(
            mqtt.connectAsync(connection.url, {
              username: connection.userName,
              password: token,
              clientId: connection.clientId,
              // Reconnecting is this link's job, at the next batch, so a refused credential is seen as refused.
              reconnectPeriod: 0,
              connectTimeout: ANSWER_TIMEOUT_MS,
              ...(connection.alpn ? { ALPNProtocols: [connection.alpn] } : {}),
            }),
            'connect',
          );
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          const refused = typeof code === 'number' && REFUSED_CODES.has(code);
          return { outcome: refused ? 'refused' : 'retry', detail: messageOf(error) };
        }
      }
      try {
        await within(publishOrClose(client, connection.topic, JSON.stringify({ readings })), 'publish');
        return { outcome: 'sent' };
      } catch (error) {
        await drop();
        return { outcome: 'retry', detail: messageOf(error) };
      }
    },
    close: drop,
  };
};
