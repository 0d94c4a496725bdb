import { createIntegrationsDeps, readIntegrationsEnv } from '../../../functions/integrations/deps';
import { createDeliveryStore } from '../../../functions/integrations/store/delivery-store';
import { createHttpSender } from '../../../functions/integrations/store/http-sender';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, documentClient, stack } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';
import { receiverPerTest } from '../../support/webhooks';

/**
 * Safe targets (docs/integrations.md, "Safe targets"): what the cloud refuses, on this machine, against a real receiver
 * on 127.0.0.1 that must never be reached. The cloud's policy (`public`) is the sender's and the lanes' own option; the
 * local stack runs the local one, which lets the demo reach localhost.
 */

const receiver = receiverPerTest();
let restore: () => void;
beforeAll(() => {
  restore = useStackEnvironment();
});
afterAll(() => restore());

const post = (sender: ReturnType<typeof createHttpSender>, url: string) =>
  sender.send({ url, body: '{}', headers: { 'content-type': 'application/json' } });

describe('sending in the cloud', () => {
  const cloud = createHttpSender({ policy: 'public' });

  it('refuses loopback, private, link-local and metadata addresses, and a name that resolves to 127.0.0.1', async () => {
    for (const url of [
      `https://127.0.0.1:${receiver().port}/hook`,
      `https://[::1]:${receiver().port}/hook`,
      'https://10.0.0.1/hook',
      'https://192.168.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      `http://127.0.0.1:${receiver().port}/hook`,
    ]) {
      expect(await post(cloud, url)).toMatchObject({ refused: true, error: expect.stringMatching(/^Refused: /) });
    }
    // A name is refused once resolved, when the connection is made: localhost is 127.0.0.1.
    const named = await post(cloud, `https://localhost:${receiver().port}/hook`);
    expect(named).toMatchObject({ refused: true, error: expect.stringMatching(/^Refused: (127\.0\.0\.1|::1)/) });
    expect(receiver().requests).toEqual([]);
  });

  it('is what keeps the receiver unreached: on one machine the same sender reaches it', async () => {
    const local = createHttpSender({ policy: 'local' });
    expect(await post(local, `http://localhost:${receiver().port}/hook`)).toMatchObject({ statusCode: 204 });
    expect(receiver().requests).toHaveLength(1);
  });

  it("records the refusal in the webhook's log as a failed attempt, and the receiver gets nothing", async () => {
    const device = await freshDevice();
    const integrations = apiAs('integrations', device.ownerToken);
    // Saved here (this machine takes a name of any address); sent by lanes running the cloud's policy.
    const made = await integrations.createWebhook({
      body: {
        url: `https://localhost:${receiver().port}/hook`,
        events: ['readings.received'],
        target: { kind: 'device', id: device.id },
      },
    });
    const owner = 'ssrf-test';
    const deliveries = createDeliveryStore({ db: documentClient(), tableName: stack().tables.webhookDeliveries! });
    await deliveries.acquire(made.id, owner, Date.now(), Date.UTC(2100, 0, 1));
    await integrations.testWebhook({ params: { id: made.id } });
    const { lanes } = createIntegrationsDeps(readIntegrationsEnv(), { targets: 'public', owner });
    await lanes.run({ kind: 'lane.wake', webhookId: made.id });
    const [ping] = (await integrations.listDeliveries({ params: { id: made.id } })).items;
    expect(ping).toMatchObject({ eventType: 'ping', status: 'failed' });
    expect(ping!.attempts[0]!.error).toMatch(/^Refused: (127\.0\.0\.1|::1)/);
    expect(ping!.attempts[0]!.statusCode).toBeUndefined();
    expect(receiver().requests).toEqual([]);
  });
});
