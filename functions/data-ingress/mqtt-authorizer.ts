import { readEnv } from '../_shared/env';
import { iotAuthorizer } from '../_shared/iot/iot-authorizer';
import type { MqttAuthorizerEvent } from './domain/mqtt-authorizer';
import { createMqttAuthorizerDeps, MQTT_AUTHORIZER_ENV } from './wiring/mqtt-authorizer';

const env = readEnv(MQTT_AUTHORIZER_ENV);

/**
 * IoT Core's custom authorizer for devices connecting over MQTT with their credential (decision 031): the same
 * verifier as the HTTPS ingest, read on every connection and refresh (no cache, as issue 19 asks of the HTTPS path).
 */
export const handler = iotAuthorizer(
  {
    name: 'DeviceMqttAuthorizer',
    deps: () => createMqttAuthorizerDeps(env),
  },
  (event: MqttAuthorizerEvent, { authorize }) => authorize(event),
);
