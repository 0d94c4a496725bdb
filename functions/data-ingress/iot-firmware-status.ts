import { FirmwareStatusReport } from '../../shared/contracts/data-ingress';
import { deviceIdOfTopic, ruleTopicOf } from '../../shared/iot/topics';
import { getDocumentClient } from '../_shared/clients';
import { createCredentialVerifier } from '../_shared/devices/credential-verifier';
import { DomainError } from '../_shared/errors';
import { iotRule } from '../_shared/iot/iot-rule';
import { log } from '../_shared/logger';
import { createFirmwareStatusDeps, readDataIngressEnv } from './deps';
import { credentialIdOfPrincipal } from './domain/mqtt-authorizer';

const env = readDataIngressEnv();

/**
 * The IoT rule on `devices/+/firmware-status` (through the broker, or Basic Ingest's
 * `$aws/rules/{rule}/devices/{id}/firmware-status`, decision 043): a device's report of its firmware update, into the
 * same use case as `POST /data-ingress/firmware/status`. The connection's credential is checked again, as the readings
 * rule does (iot-readings.ts). A report the use case refuses (another device's rollout, a later rollout took the
 * device, not offered yet) is logged and answered in the result, never thrown: a retry would refuse it again.
 * Storage failures throw, so the rule's retry and error action see them.
 */
export const handler = iotRule(
  'DataIngressFirmwareStatus',
  async (event, { firmwareStatus, credentials }) => {
    const { topic: published, principal, ...payload } = event;
    const { topic } = ruleTopicOf(published);
    const deviceId = deviceIdOfTopic(topic);
    if (!deviceId || !topic.endsWith('/firmware-status')) {
      log('warn', 'A firmware report on a topic that names no device', { topic });
      return { ignored: 'topic' };
    }
    const credentialId = credentialIdOfPrincipal(principal);
    if (credentialId && (await credentials.deviceOfCredential(credentialId)) !== deviceId) {
      log('warn', 'A firmware report over a connection whose credential is revoked', { deviceId, credentialId });
      return { deviceId, ignored: 'credential' };
    }
    const report = FirmwareStatusReport.safeParse(payload);
    if (!report.success) {
      log('warn', 'Malformed firmware report', { deviceId, issue: report.error.issues[0]?.message });
      return { deviceId, malformed: true };
    }
    try {
      return { deviceId, ...(await firmwareStatus.report(deviceId, report.data)) };
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error;
      log('warn', 'Firmware report refused', { deviceId, rolloutId: report.data.rolloutId, reason: error.message });
      return { deviceId, refused: error.message };
    }
  },
  {
    deps: () => ({
      firmwareStatus: createFirmwareStatusDeps(env).firmwareStatus,
      credentials: createCredentialVerifier({
        db: getDocumentClient(),
        tableName: env.deviceCredentialsTable,
        recordUse: true,
      }),
    }),
  },
);
