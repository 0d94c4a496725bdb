import { signRealtimeUrl } from './realtime-signing';

describe('the signed IoT Core WebSocket URL', () => {
  const date = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token/with+chars' };
  const url = 'wss://abc-ats.iot.us-west-2.amazonaws.com/mqtt';

  it('signs for iotdevicegateway in the region and appends the session token unsigned', async () => {
    const signed = new URL(await signRealtimeUrl(url, 'us-west-2', credentials, date));
    expect(`${signed.protocol}//${signed.host}${signed.pathname}`).toBe(url);
    expect(signed.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(signed.searchParams.get('X-Amz-Credential')).toBe(
      'AKIDEXAMPLE/20261121/us-west-2/iotdevicegateway/aws4_request',
    );
    expect(signed.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.searchParams.get('X-Amz-Security-Token')).toBe('token/with+chars');
  });

  it('gives the same signature whatever the session token (it is outside the signature), another for another secret', async () => {
    const signature = async (c: typeof credentials) =>
      new URL(await signRealtimeUrl(url, 'us-west-2', c, date)).searchParams.get('X-Amz-Signature');
    expect(await signature({ ...credentials, sessionToken: 'other' })).toBe(await signature(credentials));
    expect(await signature({ ...credentials, secretAccessKey: 'other' })).not.toBe(await signature(credentials));
  });
});
