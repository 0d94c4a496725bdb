import type { IClientOptions, MqttClient } from 'mqtt';
import { readingsIngestTopic, readingsRuleName } from '../../../shared/iot/topics';
import { wellInsideDay } from '../../support/clock';
import { connectDevice, eventually, freshDevice, storedReadings, type TestDevice } from '../../support/sensor-data';
import { apiAs } from '../../support/stack';

/**
 * Devices over MQTT with the credential a person creates on the device page (docs/decisions/031): the local broker
 * asks the cloud authorizer's use case at CONNECT and applies its policy, as IoT Core does with the authorizer's
 * answer; a revoked credential is refused at CONNECT and its live connection's readings stop at once.
 */

const settle = (ms = 1_500) => new Promise((resolve) => setTimeout(resolve, ms));

const batch = (timestamp: number, co2: number) => JSON.stringify({ readings: [{ timestamp, values: { co2 } }] });

/** Publishes and waits for the broker's answer or the connection's end, whichever comes first. */
const tryPublish = (client: MqttClient, topic: string, payload: string) =>
  Promise.race([
    client.publishAsync(topic, payload, { qos: 1 }).then(
      () => 'sent',
      () => 'refused',
    ),
    new Promise<string>((resolve) => client.once('close', () => resolve('closed'))),
    settle(3_000).then(() => 'no answer'),
  ]);

const revokeAll = async (device: TestDevice) => {
  const devices = apiAs('devices', device.ownerToken);
  for (const credential of (await devices.listCredentials({ params: { id: device.id } })).items) {
    await devices.revokeCredential({ params: { id: device.id, credentialId: credential.credentialId } });
  }
};

// Readings of the last seconds are read back from the day partition of the test's `now`: no test runs across midnight.
beforeEach(() => wellInsideDay(60_000), 2 * 60_000);

describe('devices over MQTT with their credential', () => {
  it('lets a device with its valid credential in, and its readings land', async () => {
    const device = await freshDevice();
    const client = await connectDevice(device);
    try {
      const now = Date.now();
      await client.publishAsync(`devices/${device.id}/readings`, batch(now - 1_000, 450), { qos: 1 });
      const stored = await eventually(async () => {
        const items = await storedReadings(device.id, now);
        return items.length ? items : undefined;
      });
      expect(stored.map((r) => [r.ts, r.v])).toEqual([[now - 1_000, { co2: 450 }]]);
    } finally {
      await client.endAsync();
    }
  });

  it('takes in its readings through Basic Ingest, the local readings rule’s topic (decision 043)', async () => {
    const device = await freshDevice();
    const victim = await freshDevice();
    const client = await connectDevice(device);
    const rule = readingsRuleName('local');
    try {
      const now = Date.now();
      await client.publishAsync(readingsIngestTopic(rule, device.id), batch(now - 2_000, 512), { qos: 1 });
      const stored = await eventually(async () => {
        const items = await storedReadings(device.id, now);
        return items.length ? items : undefined;
      });
      expect(stored.map((r) => [r.ts, r.v])).toEqual([[now - 2_000, { co2: 512 }]]);
      const outcome = await tryPublish(client, readingsIngestTopic(rule, victim.id), batch(now - 1_000, 999));
      expect(outcome).not.toBe('sent');
      await settle();
      expect(await storedReadings(victim.id, now)).toEqual([]);
    } finally {
      client.end(true);
    }
  });

  it('refuses at CONNECT a wrong credential, another device’s, a client id that is not the device, or none', async () => {
    const device = await freshDevice();
    const other = await freshDevice();
    const [secretless] = device.credential.split('.');
    for (const options of [
      { password: `${secretless}.wrong-secret-wrong-secret-wrong` },
      { password: other.credential },
      { clientId: other.id },
      { clientId: `${device.id}-2` },
      { password: undefined },
    ] as IClientOptions[]) {
      await expect(connectDevice(device, options)).rejects.toThrow(/Bad username or password|Not authorized/i);
    }
  });

  it('refuses a revoked credential at CONNECT, and stops a live connection’s readings at once', async () => {
    const device = await freshDevice();
    const live = await connectDevice(device);
    try {
      const before = Date.now();
      await live.publishAsync(`devices/${device.id}/readings`, batch(before - 2_000, 500), { qos: 1 });
      await eventually(async () => (await storedReadings(device.id, before)).length > 0);

      await revokeAll(device);
      // The connection outlives the revocation (in the cloud until the authorizer's next refresh, ≤ 300 s), but what
      // it sends is refused on its next message.
      await tryPublish(live, `devices/${device.id}/readings`, batch(before - 1_000, 600));
      await settle();
      expect((await storedReadings(device.id, before)).map((r) => r.v.co2)).toEqual([500]);
    } finally {
      live.end(true);
    }
    await expect(connectDevice(device)).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it('drops what a device publishes to another device’s topics', async () => {
    const device = await freshDevice();
    const victim = await freshDevice();
    const client = await connectDevice(device);
    try {
      const now = Date.now();
      const outcome = await tryPublish(client, `devices/${victim.id}/readings`, batch(now - 1_000, 999));
      expect(outcome).not.toBe('sent');
      await settle();
      expect(await storedReadings(victim.id, now)).toEqual([]);
    } finally {
      client.end(true);
    }
  });
});
