import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDemoCredentials } from '../../../infra/local/bootstrap';
import { seededRandom } from '../../../infra/local/demo-shapes';
import { createDemoSimulation } from '../../../infra/local/demo-simulation';
import type { DemoClock } from '../../../infra/local/demo-simulator';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { deviceConnectionOf } from '../../../shared/iot/device-connection';
import { eventually, freshDevice, ingest } from '../../support/sensor-data';
import { apiAs, documentClient, stack, subOf, tokenOf } from '../../support/stack';

/**
 * The live demo (docs/decisions/047-live-demo-devices.md) against the tests' stack. The stack itself runs without the
 * simulator (tests must not see data move); here one is started in the test's process, on devices of its own, with
 * a clock the test moves minute by minute: no real minute is waited out.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const minutes = (from: number, to: number) =>
  Array.from({ length: (to - from) / MINUTE + 1 }, (_, i) => from + i * MINUTE);

/** A clock the test sets; its timers never fire (the test ticks). */
const testClock = (start: number) => {
  let now = start;
  const clock: DemoClock = { now: () => now, after: () => () => undefined };
  return {
    clock,
    set: (time: number) => {
      now = time;
    },
  };
};

const credentialsFile = () =>
  path.join(mkdtempSync(path.join(tmpdir(), 'demo-simulator-')), 'demo-device-credentials.json');

describe('the demo devices in the tests’ stack', () => {
  it('are not simulated: no device reports for them, no credential was made, the buoy still reads as offline', async () => {
    expect(stack().demo.simulated).toEqual([]);
    expect(existsSync(path.join(stack().dataDir, 'demo-device-credentials.json'))).toBe(false);
    const owners = [
      ['demo-device-1', 'user@example.com'],
      ['demo-device-2', 'approved@example.com'],
    ] as const;
    for (const [id, owner] of owners) {
      const devices = apiAs('devices', await tokenOf(owner));
      expect((await devices.listCredentials({ params: { id }, query: { limit: 5 } })).items).toEqual([]);
    }
    const buoy = await apiAs('devices', await tokenOf('approved@example.com')).get({ params: { id: 'demo-device-2' } });
    // Seeded two hours before the start, and moved by nothing since.
    expect(buoy.status).toBe('offline');
    expect(buoy.lastSeen).toBeLessThan(Date.parse(stack().startedAt) - 100 * MINUTE);
  });
});

describe('the demo simulator against a running stack', () => {
  it('backfills and reports through ingest, one device over HTTPS and one over MQTT, and both read as online', async () => {
    const station = await freshDevice({ productLine: 'al30' });
    const buoy = await freshDevice({ productLine: 'sd1' });
    // Three minutes ago, half a minute into the minute: every reading lies in the past of the stack's clock.
    const minute0 = Math.floor(Date.now() / MINUTE) * MINUTE - 3 * MINUTE;
    const { clock, set } = testClock(minute0 + 30_000);
    // Each device's newest stored reading: 90 minutes back.
    for (const device of [station, buoy]) {
      await ingest(device, [{ timestamp: minute0 - 90 * MINUTE, values: { temperature: 12 } }]);
    }
    // The buoy falls silent from 60 to 40 minutes back.
    const silentFrom = minute0 - 60 * MINUTE;
    const silence = { everyMs: 3 * HOUR, lengthMs: 20 * MINUTE, offsetMs: silentFrom % (3 * HOUR) };

    const config = (await (await fetch(`${stack().endpoints.web}/runtime-config.json`)).json()) as RuntimeConfig;
    const lines: string[] = [];
    const simulation = await createDemoSimulation({
      db: documentClient(),
      tables: stack().tables,
      credentialsFile: credentialsFile(),
      // What the device page shows, each device given only its own link's half: a reading of the buoy's can only
      // have come over MQTT, and the station's only over HTTPS.
      connectionOf: (deviceId) => {
        const { httpsUrl, mqtt } = deviceConnectionOf(config, deviceId);
        return deviceId === station.id ? { httpsUrl } : { mqtt };
      },
      devices: [
        { deviceId: station.id, profile: 'air', link: 'https' },
        { deviceId: buoy.id, profile: 'water', link: 'mqtt', silence },
      ],
      clock,
      random: seededRandom(46),
      log: (line) => lines.push(line),
    });
    try {
      await simulation.start();
      for (const tick of [1, 2]) {
        set(minute0 + tick * MINUTE + 30_000);
        await simulation.tick();
      }
      expect(simulation.report()).toEqual([
        { deviceId: station.id, link: 'https', sent: 92, waiting: 0, stopped: false },
        { deviceId: buoy.id, link: 'mqtt', sent: 72, waiting: 0, stopped: false },
      ]);
    } finally {
      await simulation.stop();
    }

    const expected = {
      [station.id]: minutes(minute0 - 90 * MINUTE, minute0 + 2 * MINUTE),
      [buoy.id]: minutes(minute0 - 90 * MINUTE, minute0 + 2 * MINUTE).filter(
        (t) => t < silentFrom || t >= silentFrom + 20 * MINUTE,
      ),
    };
    for (const device of [station, buoy]) {
      const reads = apiAs('sensor-data', device.ownerToken);
      const query = { from: minute0 - 90 * MINUTE, to: minute0 + 2 * MINUTE, limit: 500 };
      // MQTT readings reach the store through the rule, after the broker's answer.
      const stored = await eventually(async () => {
        const { items } = await reads.listReadings({ params: { id: device.id }, query });
        return items.length === expected[device.id]!.length ? items : undefined;
      });
      expect(stored.map((r) => r.timestamp).reverse()).toEqual(expected[device.id]);
      const names =
        device === station ? ['co2', 'humidity', 'pm10', 'pm2_5', 'temperature'] : ['battery', 'rssi', 'temperature'];
      expect(Object.keys(stored[0]!.values).sort()).toEqual(names);

      const seen = await apiAs('devices', device.ownerToken).get({ params: { id: device.id } });
      expect([seen.status, seen.lastSeen]).toEqual(['online', minute0 + 2 * MINUTE]);
    }
    expect(lines.filter((line) => line.includes('reporting every minute'))).toHaveLength(2);
  });

  it('keeps each device’s credential between starts, makes a new one once it is revoked, and none for a retired device', async () => {
    const kept = await freshDevice({ productLine: 'al30' });
    const retired = await freshDevice({ productLine: 'al30' });
    await apiAs('devices', retired.ownerToken).retire({ params: { id: retired.id } });
    const file = credentialsFile();
    const make = () =>
      ensureDemoCredentials({ db: documentClient(), tables: stack().tables, file, deviceIds: [kept.id, retired.id] });

    const first = await make();
    expect([...first.keys()]).toEqual([kept.id]);
    // Only this machine's user may read the file that holds the tokens.
    expect(statSync(file).mode & 0o077).toBe(0);
    const devices = apiAs('devices', kept.ownerToken);
    const listed = (await devices.listCredentials({ params: { id: kept.id }, query: { limit: 5 } })).items;
    const made = listed.find((c) => first.get(kept.id)!.startsWith(`${c.credentialId}.`));
    // Made as its owner would make it on the device page.
    expect(made).toMatchObject({ deviceId: kept.id, createdBy: await subOf('user@example.com') });

    expect(await make()).toEqual(first);

    await devices.revokeCredential({ params: { id: kept.id, credentialId: made!.credentialId } });
    const again = await make();
    expect(again.get(kept.id)).toMatch(/^dc_/);
    expect(again.get(kept.id)).not.toBe(first.get(kept.id));
    // The new one is accepted by ingest, as the device's own.
    await ingest({ credential: again.get(kept.id)! }, [{ timestamp: Date.now() - MINUTE, values: { pm2_5: 3 } }]);
  });
});
