import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * IoT Core's MQTT-over-WebSocket URL, presigned with SigV4 (service `iotdevicegateway`) from the identity pool's
 * temporary credentials. IoT Core wants the session token appended after signing, outside the signed query: a
 * signed token is refused.
 */
export const signRealtimeUrl = async (
  url: string,
  region: string,
  credentials: SigningCredentials,
  signingDate: Date = new Date(),
): Promise<string> => {
  const target = new URL(url);
  const signer = new SignatureV4({
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    region,
    service: 'iotdevicegateway',
    sha256: Sha256,
  });
  const signed = await signer.presign(
    {
      method: 'GET',
      protocol: target.protocol,
      hostname: target.hostname,
      path: target.pathname,
      headers: { host: target.hostname },
      query: {},
    },
    { expiresIn: 300, signingDate },
  );
  const query = new URLSearchParams(signed.query as Record<string, string>);
  if (credentials.sessionToken) query.set('X-Amz-Security-Token', credentials.sessionToken);
  return `${target.protocol}//${target.hostname}${target.pathname}?${query.toString()}`;
};
