import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { deviceConnectionOf } from '../../shared/iot/device-connection';
import { readingsRuleName } from '../../shared/iot/topics';
import { httpsLink, mqttLink } from './demo-device-links';
import { type MqttEmulator, startMqtt } from './emulators/mqtt';
import { createMqttAuth } from './mqtt-auth';
import { startRuleBridge } from './rule-bridge';

const READINGS = [
  { timestamp: Date.UTC(2026, 4, 12, 10, 0), values: { pm2_5: 4.2 } },
  { timestamp: Date.UTC(2026, 4, 12, 10, 1), values: { pm2_5: 4.4 } },
];
const TOKEN = 'dc_demolinktest.aaaaaaaaaaaaaaaaaaaaaaaaaaaa';

describe('a demo device’s HTTPS link', () => {
  let server: Server;
  let url: string;
  const received: { headers: IncomingMessage['headers']; body: unknown }[] = [];
  const answers: { status: number; body: unknown }[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(body) });
        const { status, body: answer } = answers.shift() ?? { status: 200, body: { accepted: 2, rejected: [] } };
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data-ingress/readings`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts the batch as the device page says, with its own credential as the bearer token', async () => {
    expect(await httpsLink(url, TOKEN).send(READINGS)).toEqual({ outcome: 'sent' });
    expect(received.at(-1)).toEqual({
      headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }),
      body: { readings: READINGS },
    });
  });

  it.each([
    [200, 'sent', { accepted: 1, rejected: [{ index: 1, reason: 'future', message: 'too far ahead' }] }],
    [503, 'retry', { message: 'busy' }],
    [500, 'retry', { message: 'failed' }],
    [429, 'retry', { message: 'slow down' }],
    [401, 'refused', { message: 'Unauthorized' }],
    [403, 'refused', { message: 'This device is retired or unknown' }],
    [400, 'dropped', { message: 'No reading was stored' }],
  ])('answered %i, makes it %s', async (status, outcome, body) => {
    answers.push({ status, body });
    expect((await httpsLink(url, TOKEN).send(READINGS)).outcome).toBe(outcome);
  });

  it('names the refused readings of a stored batch, and retries when nothing answers', async () => {
    answers.push({ status: 200, body: { accepted: 1, rejected: [{ index: 1, reason: 'future', message: 'ahead' }] } });
    expect(await httpsLink(url, TOKEN).send(READINGS)).toEqual({
      outcome: 'sent',
      detail: '1 readings refused: ahead',
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await httpsLink(`http://127.0.0.1:${port}/readings`, TOKEN).send(READINGS)).outcome).toBe('retry');
  });
});

describe('a demo device’s MQTT link, against the local broker and its rules', () => {
  let broker: MqttEmulator;
  const credentials = new Map([[TOKEN, 'dev-demo-link']]);
  const published: Record<string, unknown>[] = [];
  let stopBridge: () => Promise<void>;
  const connection = () =>
    deviceConnectionOf(
      {
        apiBaseUrls: {},
        deviceIngress: { mqttUrl: broker.url, mqttUserNameSuffix: '', readingsRule: readingsRuleName('local') },
      },
      'dev-demo-link',
    ).mqtt!;

  beforeAll(async () => {
    broker = await startMqtt({ port: 0, wsPort: 0 });
    broker.setAuth(
      createMqttAuth({
        envName: 'local',
        iotArnPrefix: 'arn:aws:iot:local:000000000000',
        verifyDeviceCredential: async (token) => credentials.get(token),
        verifyToken: async () => {
          throw new Error('no people here');
        },
        identityOf: () => 'nobody',
        mayView: async () => false,
      }),
    );
    const bridge = startRuleBridge(
      broker.broker,
      [
        {
          name: 'readings',
          ruleName: readingsRuleName('local'),
          topicFilter: 'devices/+/readings',
          handler: async (event) => {
            published.push(event);
          },
        },
      ],
      undefined,
      broker.principalOf,
    );
    stopBridge = bridge.stop;
  });
  afterAll(async () => {
    await stopBridge();
    await broker.stop();
  });
  // The authorizer's refusals are logged (a warning): read, not printed.
  let warnings: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('publishes the batch to its Basic Ingest topic, which hands it to the readings rule', async () => {
    const link = mqttLink(connection(), TOKEN);
    try {
      expect(connection().topic).toBe('$aws/rules/DataIngressReadings_local/devices/dev-demo-link/readings');
      expect(await link.send(READINGS)).toEqual({ outcome: 'sent' });
      expect(await link.send(READINGS.slice(1))).toEqual({ outcome: 'sent' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(published).toEqual([
        expect.objectContaining({ readings: READINGS, topic: 'devices/dev-demo-link/readings' }),
        expect.objectContaining({ readings: READINGS.slice(1), topic: 'devices/dev-demo-link/readings' }),
      ]);
    } finally {
      await link.close();
    }
  });

  it('is refused with a credential the broker does not accept', async () => {
    const link = mqttLink(connection(), 'dc_demolinktest.bbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    expect((await link.send(READINGS)).outcome).toBe('refused');
    expect(String(warnings.mock.calls[0]?.[0])).toContain('MQTT connection refused');
    await link.close();
  });

  it('retries when its credential is revoked while connected, and is refused at the next connection', async () => {
    const link = mqttLink(connection(), TOKEN);
    try {
      expect((await link.send(READINGS)).outcome).toBe('sent');
      credentials.delete(TOKEN);
      expect((await link.send(READINGS)).outcome).toBe('retry');
      expect((await link.send(READINGS)).outcome).toBe('refused');
    } finally {
      credentials.set(TOKEN, 'dev-demo-link');
      await link.close();
    }
  });
});
