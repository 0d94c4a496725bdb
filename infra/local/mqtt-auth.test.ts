import { localIdentityId } from '../../shared/iot/realtime';
import { callerOf } from '../../test/support/callers';
import { createMqttAuth } from './mqtt-auth';

const caller = (sub: string, tokenUse: 'access' | 'id' = 'access') => callerOf(sub, [], tokenUse);

// The rules with small in-memory stand-ins for the verifiers and the data access.
const credentials: Record<string, string> = { dc_good1: 'dev-1', dc_good2: 'dev-2' };
const auth = createMqttAuth({
  envName: 'local',
  iotArnPrefix: 'arn:aws:iot:local:000000000000',
  verifyDeviceCredential: async (token) => credentials[token],
  verifyToken: async (token) => {
    if (token === 'access-alice') return caller('alice');
    if (token === 'id-alice') return caller('alice', 'id');
    throw new Error('refused');
  },
  identityOf: (c) => localIdentityId(c.sub),
  mayView: async (c, deviceId) => c.sub === 'alice' && deviceId === 'dev-1',
});

describe('the local broker’s rules', () => {
  /** A device connected with its credential, as the broker holds it. */
  const deviceConnection = async (deviceId: string, credential: string) => {
    const principal = await auth.authenticate(deviceId, credential, deviceId);
    if (!principal) throw new Error(`${deviceId} was refused`);
    return principal;
  };

  it('accepts a device by its own credential and client id only, through the cloud authorizer’s use case', async () => {
    expect(await auth.authenticate('dev-1', 'dc_good1', 'dev-1')).toMatchObject({
      kind: 'device',
      deviceId: 'dev-1',
      credential: 'dc_good1',
      principalId: Buffer.from('dc_good1').toString('hex'),
    });
    expect(await auth.authenticate('dev-2', 'dc_good1', 'dev-2')).toBeUndefined();
    expect(await auth.authenticate('dev-1', 'dc_wrong', 'dev-1')).toBeUndefined();
    expect(await auth.authenticate('dev-1', 'dc_good1', 'dev-2')).toBeUndefined();
    expect(await auth.authenticate('dev-1', 'dc_good1')).toBeUndefined();
    expect(await auth.authenticate('dev-1', undefined, 'dev-1')).toBeUndefined();
    expect(await auth.authenticate(undefined, undefined)).toBeUndefined();
  });

  it('accepts a browser by its own identity and access token only', async () => {
    expect(await auth.authenticate('local:alice', 'access-alice')).toMatchObject({
      kind: 'browser',
      identityId: 'local:alice',
    });
    expect(await auth.authenticate('local:bob', 'access-alice')).toBeUndefined();
    expect(await auth.authenticate('local:alice', 'id-alice')).toBeUndefined();
    expect(await auth.authenticate('local:alice', 'forged')).toBeUndefined();
  });

  it('lets a device publish only its own readings (through the broker or Basic Ingest) and status', async () => {
    const device = await deviceConnection('dev-1', 'dc_good1');
    expect(await auth.mayPublish(device, 'devices/dev-1/readings')).toBe(true);
    expect(await auth.mayPublish(device, 'devices/dev-1/status')).toBe(true);
    expect(await auth.mayPublish(device, 'devices/dev-2/readings')).toBe(false);
    expect(await auth.mayPublish(device, 'devices/dev-1/live')).toBe(false);
    expect(await auth.mayPublish(device, 'devices/dev-1/readings/x')).toBe(false);
    expect(await auth.mayPublish(device, 'devices/dev-1/+')).toBe(false);
    expect(await auth.mayPublish(device, 'local/identities/local:alice/devices/dev-1/live')).toBe(false);
    // Basic Ingest: its readings through the local readings rule only.
    expect(await auth.mayPublish(device, '$aws/rules/DataIngressReadings_local/devices/dev-1/readings')).toBe(true);
    expect(await auth.mayPublish(device, '$aws/rules/DataIngressReadings_local/devices/dev-2/readings')).toBe(false);
    expect(await auth.mayPublish(device, '$aws/rules/DataIngressReadings_local/devices/dev-1/status')).toBe(false);
    expect(await auth.mayPublish(device, '$aws/rules/DataIngressReadings_prod/devices/dev-1/readings')).toBe(false);
  });

  it('stops a connected device on its next publish once its credential is revoked', async () => {
    const device = await deviceConnection('dev-2', 'dc_good2');
    expect(await auth.mayPublish(device, 'devices/dev-2/readings')).toBe(true);
    delete credentials.dc_good2;
    expect(await auth.mayPublish(device, 'devices/dev-2/readings')).toBe(false);
  });

  it('lets a browser publish nothing', async () => {
    const browser = { kind: 'browser', identityId: 'local:alice', caller: caller('alice') } as const;
    expect(await auth.mayPublish(browser, 'devices/dev-1/readings')).toBe(false);
    expect(await auth.mayPublish(browser, 'local/identities/local:alice/devices/dev-1/live')).toBe(false);
  });

  it('lets a browser subscribe to its own watcher topic of a device it may view, nothing else', async () => {
    const browser = { kind: 'browser', identityId: 'local:alice', caller: caller('alice') } as const;
    expect(await auth.maySubscribe(browser, 'local/identities/local:alice/devices/dev-1/live')).toBe(true);
    expect(await auth.maySubscribe(browser, 'local/identities/local:alice/devices/dev-2/live')).toBe(false);
    expect(await auth.maySubscribe(browser, 'local/identities/local:bob/devices/dev-1/live')).toBe(false);
    expect(await auth.maySubscribe(browser, 'dev/identities/local:alice/devices/dev-1/live')).toBe(false);
    expect(await auth.maySubscribe(browser, 'local/identities/local:alice/devices/+/live')).toBe(false);
    expect(await auth.maySubscribe(browser, 'local/identities/local:alice/#')).toBe(false);
    expect(await auth.maySubscribe(browser, 'devices/dev-1/readings')).toBe(false);
    expect(await auth.maySubscribe(browser, '#')).toBe(false);
  });

  it('lets a device subscribe to nothing, as its cloud policy (no device topic carries commands)', async () => {
    const device = await deviceConnection('dev-1', 'dc_good1');
    expect(await auth.maySubscribe(device, 'devices/dev-1/#')).toBe(false);
    expect(await auth.maySubscribe(device, 'devices/dev-1/readings')).toBe(false);
    expect(await auth.maySubscribe(device, 'devices/dev-2/#')).toBe(false);
    expect(await auth.maySubscribe(device, 'devices/+/readings')).toBe(false);
    expect(await auth.maySubscribe(device, 'devices/dev-1/+')).toBe(false);
    expect(await auth.maySubscribe(device, '#')).toBe(false);
  });
});
