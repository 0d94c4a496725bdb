import type { RuntimeConfig } from '../config/runtime-config';
import { readingsIngestTopic, topicLabel } from './topics';

/** What a person configures on a device for it to send its readings, beside the credential's token. */
export interface DeviceConnection {
  /** `POST` here with `Authorization: Bearer {token}` (spec §7). */
  httpsUrl?: string;
  mqtt?: {
    url: string;
    /** Offer this TLS ALPN protocol (IoT Core on port 443). */
    alpn?: string;
    userName: string;
    clientId: string;
    /** Where it publishes its batches: the readings rule's Basic Ingest topic (decision 043). */
    topic: string;
  };
}

/**
 * A device's connection details from the environment's runtime config: the same values the cloud's custom authorizer
 * and the local broker check (user name and client id = the device id, password = the token). Parts the
 * environment does not configure are left out.
 */
export const deviceConnectionOf = (
  config: Pick<RuntimeConfig, 'apiBaseUrls' | 'deviceIngress'>,
  deviceId: string,
): DeviceConnection => {
  const id = topicLabel(deviceId, 'device id');
  const ingressBase = config.apiBaseUrls['data-ingress'];
  const ingress = config.deviceIngress;
  return {
    ...(ingressBase ? { httpsUrl: `${ingressBase.replace(/\/$/, '')}/readings` } : {}),
    ...(ingress
      ? {
          mqtt: {
            url: ingress.mqttUrl,
            ...(ingress.mqttAlpn ? { alpn: ingress.mqttAlpn } : {}),
            userName: `${id}${ingress.mqttUserNameSuffix}`,
            clientId: id,
            topic: readingsIngestTopic(ingress.readingsRule, id),
          },
        }
      : {}),
  };
};
