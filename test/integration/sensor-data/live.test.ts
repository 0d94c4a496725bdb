import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import mqtt, { type MqttClient } from 'mqtt';
import { createLivePublisher } from '../../../functions/_shared/sensor-data/live-publisher';
import { LOCAL_CREDENTIALS } from '../../../infra/local/emulators/listen';
import { LIVE_MESSAGES, type LiveMessage } from '../../../shared/contracts/sensor-data-live';
import { localIdentityId, REALTIME_POLICY_NAME } from '../../../shared/iot/realtime';
import { connectDevice, freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, stack, subOfToken, tokenOf } from '../../support/stack';

/** The live view (docs/sensor-data.md "Live view"): watches through the API, delivery through the local broker. */

/** Whether the broker granted a subscription (it answers a refused one with the failure code, 0x80). */
const granted = (client: MqttClient, topic: string) =>
  client.subscribeAsync(topic).then(
    (grants) => grants.every((g) => g.qos < 128),
    (error: Error) => {
      if (/Subscribe error/.test(error.message)) return false;
      throw error;
    },
  );

const browserClient = (token: string) =>
  mqtt.connectAsync(stack().endpoints.mqttWs, {
    username: localIdentityId(subOfToken(token)),
    password: token,
    reconnectPeriod: 0,
  });

const deviceClient = (id: string, credential: string) => connectDevice({ id, credential });

/** The next message on a topic, or undefined after `ms`. */
const nextMessage = (client: MqttClient, topic: string, ms = 5_000) =>
  new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    client.on('message', (t, payload) => {
      if (t !== topic) return;
      clearTimeout(timer);
      resolve(payload.toString());
    });
  });

const publisher = () =>
  createLivePublisher({
    db: documentClient(),
    tableName: stack().tables.liveWatches!,
    iot: new IoTDataPlaneClient({
      region: stack().region,
      endpoint: stack().endpoints.iotDataPlane,
      credentials: LOCAL_CREDENTIALS,
    }),
  });

describe('live watches', () => {
  it('gives the owner a watch on their own identity’s topic, for an hour', async () => {
    const device = await freshDevice();
    const before = Date.now();
    const watch = await apiAs('sensor-data', device.ownerToken).watchLive({ params: { id: device.id }, body: {} });
    const identityId = localIdentityId(subOfToken(device.ownerToken));
    expect(watch).toMatchObject({
      deviceId: device.id,
      identityId,
      topic: `local/identities/${identityId}/devices/${device.id}/live`,
    });
    expect(watch.expiresAt).toBeGreaterThanOrEqual(before + 3_500_000);
    expect(watch.expiresAt).toBeLessThanOrEqual(Date.now() + 3_601_000);
  });

  it('refuses a private device of someone else (403), a guest (401) and an unknown device (404)', async () => {
    const device = await freshDevice({ owner: 'approved@example.com' });
    const stranger = await tokenOf('user@example.com');
    expect(
      (await apiRejection(apiAs('sensor-data', stranger).watchLive({ params: { id: device.id }, body: {} }))).status,
    ).toBe(403);
    expect((await apiRejection(apiAs('sensor-data').watchLive({ params: { id: device.id }, body: {} }))).status).toBe(
      401,
    );
    expect(
      (await apiRejection(apiAs('sensor-data', stranger).watchLive({ params: { id: 'no-such-device' }, body: {} })))
        .status,
    ).toBe(404);
  });

  it('lets anyone signed in watch a public device, whatever its tier', async () => {
    const device = await freshDevice({ owner: 'approved@example.com', visibility: 'public' });
    const watch = await apiAs('sensor-data', await tokenOf('user@example.com')).watchLive({
      params: { id: device.id },
      body: {},
    });
    expect(watch.deviceId).toBe(device.id);
  });

  it('ends only the caller’s own watch', async () => {
    const device = await freshDevice({ visibility: 'public' });
    const owner = apiAs('sensor-data', device.ownerToken);
    const watch = await owner.watchLive({ params: { id: device.id }, body: {} });
    const reading = { timestamp: Date.now(), values: { pm2_5: 1 } };
    expect(await publisher().publish(device.id, [reading])).toBe(1);
    // Someone else naming the owner's identity is refused and changes nothing.
    await expect(
      apiAs('sensor-data', await tokenOf('approved@example.com')).unwatchLive({
        params: { id: device.id },
        query: { identityId: watch.identityId },
      }),
    ).rejects.toMatchObject({ status: 403 });
    expect(await publisher().publish(device.id, [reading])).toBe(1);
    await owner.unwatchLive({ params: { id: device.id }, query: { identityId: watch.identityId } });
    expect(await publisher().publish(device.id, [reading])).toBe(0);
  });
});

describe('target policies (spec §7)', () => {
  it('attaches and detaches the realtime policy on the caller’s own identity only', async () => {
    const token = await tokenOf('user@example.com');
    const api = apiAs('sensor-data', token);
    const own = localIdentityId(subOfToken(token));
    const params = { policyName: REALTIME_POLICY_NAME } as const;
    expect(await api.attachTargetPolicy({ params, body: { target: own } })).toEqual({
      policyName: REALTIME_POLICY_NAME,
      target: own,
      applied: 'local',
    });
    expect((await api.detachTargetPolicy({ params, body: { target: own } })).applied).toBe('local');

    const other = localIdentityId(subOfToken(await tokenOf('approved@example.com')));
    const refused = await apiRejection(api.attachTargetPolicy({ params, body: { target: other } }));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain(LIVE_MESSAGES.notYourIdentity);
    // Staff too: an identity is its owner's alone.
    const admin = apiAs('sensor-data', await tokenOf('admin@example.com'));
    expect((await apiRejection(admin.detachTargetPolicy({ params, body: { target: own } }))).status).toBe(403);
  });

  it('refuses any other policy name with 400', async () => {
    const token = await tokenOf('user@example.com');
    const response = await fetch(`${areaUrl('sensor-data')}/target-policies/AdminPolicy`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target: localIdentityId(subOfToken(token)) }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(LIVE_MESSAGES.unknownPolicy);
  });
});

describe('the local broker', () => {
  it('refuses a device with a wrong credential, or with another device’s', async () => {
    const [a, b] = await Promise.all([freshDevice(), freshDevice()]);
    await expect(deviceClient(a.id, `${a.credential.slice(0, -4)}AAAA`)).rejects.toThrow();
    await expect(deviceClient(a.id, b.credential)).rejects.toThrow();
  });

  it('refuses what a device publishes to another device’s topic, and lets no device subscribe', async () => {
    const [a, b] = await Promise.all([freshDevice(), freshDevice()]);
    const listener = await deviceClient(b.id, b.credential);
    const intruder = await deviceClient(a.id, a.credential);
    try {
      // A device's policy (decision 031) allows publishing to its own topics and nothing else: no subscription.
      expect(await granted(listener, `devices/${b.id}/#`)).toBe(false);
      // The control: b's own status is accepted (acknowledged at QoS 1).
      await listener.publishAsync(`devices/${b.id}/status`, '{"online":true}', { qos: 1 });
      // a's forged status for b is refused: never acknowledged (the broker drops the connection).
      const forged = await Promise.race([
        intruder.publishAsync(`devices/${b.id}/status`, '{"online":false}', { qos: 1 }).then(
          () => 'acknowledged',
          () => 'refused',
        ),
        new Promise<string>((resolve) => intruder.once('close', () => resolve('closed'))),
        new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 3_000)),
      ]);
      expect(forged).not.toBe('acknowledged');
    } finally {
      await Promise.all([listener.endAsync(), intruder.endAsync(true)]);
    }
  });

  it('lets a browser subscribe only to its own identity’s topic of a device it may view', async () => {
    const device = await freshDevice({ owner: 'approved@example.com' });
    const ownerBrowser = await browserClient(device.ownerToken);
    const strangerToken = await tokenOf('user@example.com');
    const stranger = await browserClient(strangerToken);
    try {
      const own = `local/identities/${localIdentityId(subOfToken(device.ownerToken))}/devices/${device.id}/live`;
      expect(await granted(ownerBrowser, own)).toBe(true);
      // Another identity's topic, and its own topic of a private device it may not see.
      expect(await granted(stranger, own)).toBe(false);
      const strangersOwn = `local/identities/${localIdentityId(subOfToken(strangerToken))}/devices/${device.id}/live`;
      expect(await granted(stranger, strangersOwn)).toBe(false);
      expect(await granted(stranger, 'local/identities/#')).toBe(false);
      expect(await granted(stranger, `devices/${device.id}/readings`)).toBe(false);
    } finally {
      await Promise.all([ownerBrowser.endAsync(), stranger.endAsync()]);
    }
  });

  it('refuses a browser naming an identity that is not its token’s', async () => {
    const token = await tokenOf('user@example.com');
    const other = subOfToken(await tokenOf('approved@example.com'));
    await expect(
      mqtt.connectAsync(stack().endpoints.mqttWs, {
        username: localIdentityId(other),
        password: token,
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow();
  });
});

describe('live delivery', () => {
  const watchAndListen = async (deviceId: string, token: string) => {
    const watch = await apiAs('sensor-data', token).watchLive({ params: { id: deviceId }, body: {} });
    const browser = await browserClient(token);
    await browser.subscribeAsync(watch.topic);
    return { watch, browser };
  };

  it('sends a reading ingested over HTTPS to the watcher’s topic', async () => {
    const device = await freshDevice();
    const { watch, browser } = await watchAndListen(device.id, device.ownerToken);
    try {
      const arrived = nextMessage(browser, watch.topic, 10_000);
      const timestamp = Date.now() - 1_000;
      // The device's credential is its bearer token on data-ingress.
      const result = await apiAs('data-ingress', device.credential).ingestReadings({
        body: { readings: [{ timestamp, values: { pm2_5: 12.5, temperature: 21 } }] },
      });
      expect(result).toMatchObject({ accepted: 1 });
      const message = JSON.parse((await arrived) ?? 'null') as LiveMessage | null;
      expect(message).toEqual({
        deviceId: device.id,
        readings: [{ timestamp, values: { pm2_5: 12.5, temperature: 21 } }],
      });
    } finally {
      await browser.endAsync();
    }
  });

  it('sends a reading published over MQTT to the watcher’s topic, and nothing to a watcher who stopped', async () => {
    const device = await freshDevice();
    const { watch, browser } = await watchAndListen(device.id, device.ownerToken);
    const sender = await deviceClient(device.id, device.credential);
    try {
      const arrived = nextMessage(browser, watch.topic, 10_000);
      const timestamp = Date.now() - 500;
      await sender.publishAsync(
        `devices/${device.id}/readings`,
        JSON.stringify({ readings: [{ timestamp, values: { co2: 612 } }] }),
      );
      expect(JSON.parse((await arrived) ?? 'null')).toEqual({
        deviceId: device.id,
        readings: [{ timestamp, values: { co2: 612 } }],
      });

      await apiAs('sensor-data', device.ownerToken).unwatchLive({
        params: { id: device.id },
        query: { identityId: watch.identityId },
      });
      const after = nextMessage(browser, watch.topic, 2_000);
      await sender.publishAsync(
        `devices/${device.id}/readings`,
        JSON.stringify({ readings: [{ timestamp: timestamp + 1, values: { co2: 613 } }] }),
      );
      expect(await after).toBeUndefined();
    } finally {
      await Promise.all([browser.endAsync(), sender.endAsync()]);
    }
  });
});
