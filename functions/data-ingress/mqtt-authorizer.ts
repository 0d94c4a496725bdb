import { getDocumentClient } from '../_shared/clients';
import { createCredentialVerifier } from '../_shared/devices/credential-verifier';
import { readEnv } from '../_shared/env';
import { iotAuthorizer } from '../_shared/iot/iot-authorizer';
import { log } from '../_shared/logger';
import { createMqttAuthorizer, type MqttAuthorizerEvent } from './domain/mqtt-authorizer';

/** What the authorizer reads (IOT_AUTHORIZERS in infra/definitions/services.ts; the local stack too). */
export const MQTT_AUTHORIZER_ENV = {
  deviceCredentialsTable: 'DEVICE_CREDENTIALS_TABLE',
  iotArnPrefix: 'IOT_ARN_PREFIX',
  readingsRule: 'READINGS_RULE_NAME',
  firmwareStatusRule: 'FIRMWARE_STATUS_RULE_NAME',
} as const;

/**
 * IoT Core's custom authorizer for devices connecting over MQTT with their credential (decision 031): the same
 * verifier as the HTTPS ingest, read on every connection and refresh (no cache, as issue 19 asks of the HTTPS path).
 */
export const handler = iotAuthorizer(
  {
    name: 'DeviceMqttAuthorizer',
    deps: () => {
      const env = readEnv(MQTT_AUTHORIZER_ENV);
      const verifier = createCredentialVerifier({ db: getDocumentClient(), tableName: env.deviceCredentialsTable });
      return createMqttAuthorizer({
        verifyCredential: verifier.verifyCredential,
        iotArnPrefix: env.iotArnPrefix,
        rules: { readings: env.readingsRule, firmwareStatus: env.firmwareStatusRule },
        refused: (reason, fields) => log('warn', `MQTT connection refused: ${reason}`, fields),
      });
    },
  },
  (event: MqttAuthorizerEvent, { authorize }) => authorize(event),
);
