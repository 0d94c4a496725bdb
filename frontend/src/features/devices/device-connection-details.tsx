import { deviceConnectionOf } from '../../../../shared/iot/device-connection';
import { MAX_BATCH_READINGS } from '../../../../shared/sensor-data/measurements';
import { runtimeConfig } from '../../lib/runtime-config';

/**
 * What to configure on the device beside its credential's token, from this environment's runtime config: the HTTPS
 * route and the MQTT connection the custom authorizer (or the local broker) checks, with the readings' Basic Ingest
 * topic (docs/decisions/031-mqtt-custom-authorizer.md, 043-basic-ingest.md), and why to batch (044).
 */
export const DeviceConnectionDetails = ({ deviceId }: { deviceId: string }) => {
  const { httpsUrl, mqtt } = deviceConnectionOf(runtimeConfig(), deviceId);
  if (!httpsUrl && !mqtt) return null;
  return (
    <details className="device-connection" data-testid="credentials-connect">
      <summary>How a device sends its data</summary>
      <p className="muted small">
        Either way the device sends batches of readings as JSON,{' '}
        <code>{'{"readings":[{"timestamp":1748779200000,"values":{"pm2_5":4.5}}]}'}</code>, and the password or bearer
        token is a credential’s token.
      </p>
      <p className="muted small" data-testid="credentials-connect-batching">
        A device that can wait should send several readings at once (up to {MAX_BATCH_READINGS} a batch): ten readings
        every ten minutes are stored together and cost about a fifth of a reading sent every minute.
      </p>
      {httpsUrl && (
        <>
          <h3>Over HTTPS</h3>
          <dl className="facts" data-testid="credentials-connect-https">
            <dt>Request</dt>
            <dd className="mono" data-testid="credentials-connect-https-url">
              POST {httpsUrl}
            </dd>
            <dt>Header</dt>
            <dd className="mono">Authorization: Bearer {'{token}'}</dd>
          </dl>
        </>
      )}
      {mqtt && (
        <>
          <h3>Over MQTT</h3>
          <dl className="facts" data-testid="credentials-connect-mqtt">
            <dt>Broker</dt>
            <dd className="mono" data-testid="credentials-connect-mqtt-url">
              {mqtt.url}
              {mqtt.alpn && <span className="muted"> (TLS, ALPN protocol “{mqtt.alpn}”)</span>}
            </dd>
            <dt>User name</dt>
            <dd className="mono" data-testid="credentials-connect-mqtt-user">
              {mqtt.userName}
            </dd>
            <dt>Password</dt>
            <dd>the credential’s token</dd>
            <dt>Client id</dt>
            <dd className="mono" data-testid="credentials-connect-mqtt-client">
              {mqtt.clientId}
            </dd>
            <dt>Publish to</dt>
            <dd className="mono" data-testid="credentials-connect-mqtt-topic">
              {mqtt.topic}
            </dd>
          </dl>
        </>
      )}
    </details>
  );
};
