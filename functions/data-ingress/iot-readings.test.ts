import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { DATA_INGRESS_ENV } from './deps';
import { principalIdOf } from './domain/mqtt-authorizer';

// The rule's function reads its tables' names at import, as a Lambda does at cold start; the DynamoDB calls are
// answered by the mock.
Object.assign(process.env, { AWS_REGION: 'us-west-2' });
for (const name of Object.values(DATA_INGRESS_ENV)) process.env[name] ??= name.toLowerCase();
const { handler } = await import('./iot-readings');

const db = mockClient(DynamoDBDocumentClient);
const credentialGets = () =>
  db.commandCalls(GetCommand).filter((c) => c.args[0].input.TableName === process.env.DEVICE_CREDENTIALS_TABLE);

describe('the MQTT readings rule and revoked credentials (decision 031)', () => {
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  beforeEach(() => {
    db.reset();
    db.on(UpdateCommand).resolves({});
  });
  // A malformed batch stops right after the credential check, counted in the stats: enough to see it went on.
  const malformed = (principal?: string) =>
    handler(
      { topic: 'devices/dev-1/readings', readings: 'not a list', ...(principal ? { principal } : {}) },
      {} as Context,
    );

  it('refuses the readings of a connection whose credential was revoked since it connected', async () => {
    db.on(GetCommand).resolves({});
    expect(await malformed(principalIdOf('dc_revoked01'))).toEqual({ deviceId: 'dev-1', ignored: 'credential' });
    expect(credentialGets().map((c) => c.args[0].input)).toEqual([
      { TableName: process.env.DEVICE_CREDENTIALS_TABLE, Key: { credentialId: 'dc_revoked01' }, ConsistentRead: true },
    ]);
    expect(db.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('refuses readings on a device topic other than the credential’s device', async () => {
    db.on(GetCommand).resolves({ Item: { credentialId: 'dc_other01', deviceId: 'dev-2' } });
    expect(await malformed(principalIdOf('dc_other01'))).toEqual({ deviceId: 'dev-1', ignored: 'credential' });
  });

  it('goes on with a live credential of the device, and with a principal that is not one of ours', async () => {
    db.on(GetCommand).resolves({ Item: { credentialId: 'dc_live01', deviceId: 'dev-1' } });
    expect(await malformed(principalIdOf('dc_live01'))).toEqual({ deviceId: 'dev-1', malformed: 1 });
    db.reset();
    db.on(UpdateCommand).resolves({});
    // A certificate's principal (decision 012's hand-made things): its IoT policy vouched for the topic.
    expect(await malformed('0123456789abcdef0123456789abcdef')).toEqual({ deviceId: 'dev-1', malformed: 1 });
    expect(credentialGets()).toHaveLength(0);
  });

  it('reads the device from a topic with a Basic Ingest prefix too, and checks it against the credential', async () => {
    db.on(GetCommand).resolves({ Item: { credentialId: 'dc_other01', deviceId: 'dev-2' } });
    const published = (topic: string) =>
      handler({ topic, readings: 'not a list', principal: principalIdOf('dc_other01') }, {} as Context);
    expect(await published('$aws/rules/DataIngressReadings_prod/devices/dev-2/readings')).toEqual({
      deviceId: 'dev-2',
      malformed: 1,
    });
    expect(await published('$aws/rules/DataIngressReadings_prod/devices/dev-1/readings')).toEqual({
      deviceId: 'dev-1',
      ignored: 'credential',
    });
    expect(await published('$aws/rules/DataIngressReadings_prod/devices/dev-2/status')).toEqual({ ignored: 'topic' });
  });
});
