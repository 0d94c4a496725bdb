import { createServer } from 'node:http';
import { IoTDataPlaneClient, PublishCommand } from '@aws-sdk/client-iot-data-plane';
import { Aedes, type AedesPublishPacket } from 'aedes';
import { closeServer, LOCAL_CREDENTIALS, listen } from './emulators/listen';
import { createIotDataPlane } from './iot-data-plane';

describe('the local IoT data plane', () => {
  let broker: Aedes;
  const server = createServer();
  let client: IoTDataPlaneClient;
  const seen: AedesPublishPacket[] = [];

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    broker.on('publish', (packet) => {
      if (!packet.topic.startsWith('$SYS')) seen.push(packet);
    });
    const handle = createIotDataPlane(broker);
    server.on('request', (request, response) => void handle(request, response));
    const port = await listen(server, 0);
    client = new IoTDataPlaneClient({
      region: 'eu-west-1',
      endpoint: `http://localhost:${port}`,
      credentials: LOCAL_CREDENTIALS,
    });
  });

  afterAll(async () => {
    client.destroy();
    await closeServer(server);
    await new Promise<void>((resolve) => broker.close(() => resolve()));
  });

  it('publishes what the SDK’s Publish sends into the broker, on the exact topic', async () => {
    const topic = 'local/identities/local:abc/devices/dev-1/live';
    await client.send(new PublishCommand({ topic, qos: 0, payload: Buffer.from('{"deviceId":"dev-1"}') }));
    expect(seen.map((p) => [p.topic, p.payload.toString()])).toContainEqual([topic, '{"deviceId":"dev-1"}']);
  });

  it('refuses topics the platform does not publish to (as the Lambdas’ grant does)', async () => {
    await expect(
      client.send(new PublishCommand({ topic: 'devices/dev-1/readings', payload: Buffer.from('{}') })),
    ).rejects.toMatchObject({ name: 'ForbiddenException' });
  });
});
