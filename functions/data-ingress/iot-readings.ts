import { ReadingBatch } from '../../shared/contracts/data-ingress';
import { deviceIdOfTopic, ruleTopicOf } from '../../shared/iot/topics';
import { iotRule } from '../_shared/iot/iot-rule';
import { log } from '../_shared/logger';
import { createReadingsRuleDeps, readDataIngressEnv } from './deps';
import { credentialIdOfPrincipal } from './domain/mqtt-authorizer';

const env = readDataIngressEnv();

/**
 * The IoT rule on `devices/+/readings` (through the broker, or Basic Ingest's `$aws/rules/{rule}/devices/{id}/readings`
 * without it, decision 043): an MQTT batch of readings, into the same use case as the HTTPS path.
 * The broker authenticated the device and lets it publish only on its own topics, so the topic names the device.
 * A device that connected with its credential (the custom authorizer, decision 031) is checked again here, by the
 * credential id its principal carries: a credential revoked since the connection was authorized is refused on its
 * next message, as on the HTTPS path (issue 19), although IoT Core keeps the connection until its next refresh.
 * Refusals (a bad envelope, an unknown or retired device) are counted and logged, never thrown: a retry would
 * refuse them again. Storage or queue failures throw, so the rule's retry and error action see them.
 */
export const handler = iotRule(
  'DataIngressReadings',
  async (event, { ingest, stats, credentials }) => {
    const { topic: published, principal, ...payload } = event;
    // IoT Core's `topic()` leaves out a Basic Ingest prefix (decision 043); read without it all the same, should one show.
    const { topic } = ruleTopicOf(published);
    const deviceId = deviceIdOfTopic(topic);
    if (!deviceId || !topic.endsWith('/readings')) {
      log('warn', 'Readings on a topic that names no device', { topic });
      return { ignored: 'topic' };
    }
    // Another principal (a certificate of decision 012's hand-made things) was vouched for by IoT Core's policy.
    const credentialId = credentialIdOfPrincipal(principal);
    if (credentialId && (await credentials.deviceOfCredential(credentialId)) !== deviceId) {
      log('warn', 'Readings over a connection whose credential is revoked', { deviceId, credentialId });
      return { deviceId, ignored: 'credential' };
    }
    const batch = ReadingBatch.safeParse(payload);
    if (!batch.success) {
      const count = Array.isArray(payload.readings) ? Math.max(payload.readings.length, 1) : 1;
      await stats.add(deviceId, { malformed: count }, Date.now());
      log('warn', 'Malformed readings batch', { deviceId, issue: batch.error.issues[0]?.message });
      return { deviceId, malformed: count };
    }
    const outcome = await ingest(deviceId, batch.data);
    if (outcome.device === 'unknown') log('warn', 'Readings from an unknown or retired device', { deviceId });
    return {
      deviceId,
      device: outcome.device,
      accepted: outcome.accepted,
      rejected: outcome.rejected.length,
      ...(outcome.rejected[0] ? { firstRejection: outcome.rejected[0] } : {}),
    };
  },
  { deps: () => createReadingsRuleDeps(env) },
);
