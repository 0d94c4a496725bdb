import { getDocumentClient } from '../../_shared/clients';
import { createCredentialVerifier } from '../../_shared/devices/credential-verifier';
import { log } from '../../_shared/logger';
import { createMqttAuthorizer } from '../domain/mqtt-authorizer';

// The authorizer's own part, apart from deps.ts: its bundle holds the credential check alone (it answers every MQTT
// connection; docs/decisions/029-small-lambdas.md).

/** What the MQTT authorizer reads (IOT_AUTHORIZERS in infra/definitions/services.ts; the local stack too). */
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
export const createMqttAuthorizerDeps = (env: Record<keyof typeof MQTT_AUTHORIZER_ENV, string>) =>
  createMqttAuthorizer({
    verifyCredential: createCredentialVerifier({ db: getDocumentClient(), tableName: env.deviceCredentialsTable })
      .verifyCredential,
    iotArnPrefix: env.iotArnPrefix,
    rules: { readings: env.readingsRule, firmwareStatus: env.firmwareStatusRule },
    refused: (reason, fields) => log('warn', `MQTT connection refused: ${reason}`, fields),
  });
