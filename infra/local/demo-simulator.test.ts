import type { StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { DEMO_SENSOR_DATA } from './demo-readings';
import { seededRandom } from './demo-shapes';
import {
  createDemoSimulator,
  DEMO_BACKFILL_MS,
  type DemoClock,
  type DeviceLink,
  isSilent,
  type LinkOutcome,
  type SilenceSchedule,
  type SimulatedDevice,
  silentWindowAt,
} from './demo-simulator';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A fixed clock, half a minute into 10:00 UTC. */
const T0 = Date.UTC(2026, 4, 12, 10, 0, 30);
const MINUTE0 = Date.UTC(2026, 4, 12, 10, 0);
/** The lake buoy's schedule: silent 20 minutes every 3 hours, from 01:40 UTC (01:40, 04:40, 07:40, 10:40, …). */
const BUOY_SILENCE: SilenceSchedule = DEMO_SENSOR_DATA.find((d) => d.deviceId === 'demo-device-2')!.silence!;

/** A clock the test moves; timers fire only when the test runs them. */
const testClock = (start: number) => {
  let now = start;
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  const clock: DemoClock = {
    now: () => now,
    after: (ms, run) => {
      const timer = { at: now + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
  };
  return {
    clock,
    timers,
    set: (time: number) => {
      now = time;
    },
  };
};

/** A link that keeps each batch it is given and answers as told (then `sent`). */
const recordingLink = (kind: DeviceLink['kind'], answers: LinkOutcome['outcome'][] = []) => {
  const batches: StoredReading[][] = [];
  let closed = 0;
  const link: DeviceLink = {
    kind,
    send: async (readings) => {
      batches.push([...readings]);
      return { outcome: answers.shift() ?? 'sent', detail: 'as told' };
    },
    close: async () => {
      closed += 1;
    },
  };
  return { link, batches, closed: () => closed, times: () => batches.flat().map((r) => r.timestamp) };
};

const device = (link: DeviceLink, extra: Partial<SimulatedDevice> = {}): SimulatedDevice => ({
  deviceId: `dev-${link.kind}`,
  profile: link.kind === 'https' ? 'air' : 'water',
  utcOffsetMinutes: -7 * 60,
  link,
  ...extra,
});

const minutes = (from: number, to: number) =>
  Array.from({ length: (to - from) / MINUTE + 1 }, (_, i) => from + i * MINUTE);

const simulator = (
  devices: SimulatedDevice[],
  clock: DemoClock,
  newest: (deviceId: string, since: number) => number | undefined = () => undefined,
) => {
  const lines: string[] = [];
  const made = createDemoSimulator({
    devices,
    clock,
    random: seededRandom(46),
    newestReading: async (deviceId, since) => newest(deviceId, since),
    log: (line) => lines.push(line),
  });
  return { simulator: made, lines };
};

describe('the silence schedule', () => {
  it('finds the window a time falls in, and none between windows', () => {
    expect(silentWindowAt(BUOY_SILENCE, Date.UTC(2026, 4, 12, 10, 45))).toEqual({
      start: Date.UTC(2026, 4, 12, 10, 40),
      end: Date.UTC(2026, 4, 12, 11, 0),
    });
    expect(silentWindowAt(BUOY_SILENCE, Date.UTC(2026, 4, 12, 11, 0))).toBeUndefined();
    expect(silentWindowAt(BUOY_SILENCE, Date.UTC(2026, 4, 12, 10, 39))).toBeUndefined();
    expect(silentWindowAt(BUOY_SILENCE, Date.UTC(2026, 4, 12, 1, 40))).toBeDefined();
  });

  it('is silent 20 minutes in every 3 hours, and a device started inside a window reports from its start', () => {
    const startedAt = Date.UTC(2026, 4, 12, 0, 0);
    const day = minutes(startedAt, startedAt + 24 * HOUR - MINUTE);
    const silent = day.filter((time) => isSilent(BUOY_SILENCE, time, startedAt));
    expect(silent).toHaveLength(8 * 20);
    expect(new Set(silent.map((time) => new Date(time).toISOString().slice(11, 14)))).toEqual(
      new Set(['01:', '04:', '07:', '10:', '13:', '16:', '19:', '22:']),
    );
    const midWindow = Date.UTC(2026, 4, 12, 10, 50);
    expect(isSilent(BUOY_SILENCE, midWindow - MINUTE, midWindow)).toBe(true);
    expect(isSilent(BUOY_SILENCE, midWindow, midWindow)).toBe(false);
    expect(isSilent(BUOY_SILENCE, midWindow + 5 * MINUTE, midWindow)).toBe(false);
    // The next window is silent as usual.
    expect(isSilent(BUOY_SILENCE, Date.UTC(2026, 4, 12, 13, 45), midWindow)).toBe(true);
    expect(isSilent(undefined, midWindow, midWindow - HOUR)).toBe(false);
  });
});

describe('the demo simulator', () => {
  it('resends the gap since the newest stored reading in batches of an hour, oldest first, then goes live', async () => {
    const { clock, set } = testClock(T0);
    const https = recordingLink('https');
    const mqtt = recordingLink('mqtt');
    const newest = { 'dev-https': MINUTE0 - 90 * MINUTE, 'dev-mqtt': MINUTE0 - 10 * MINUTE } as Record<string, number>;
    const { simulator: sim } = simulator([device(https.link), device(mqtt.link)], clock, (id) => newest[id]);
    await sim.tick();
    expect(https.batches.map((b) => b.length)).toEqual([60, 30]);
    expect(https.times()).toEqual(minutes(MINUTE0 - 89 * MINUTE, MINUTE0));
    expect(mqtt.times()).toEqual(minutes(MINUTE0 - 9 * MINUTE, MINUTE0));
    expect(Object.keys(https.batches[0]![0]!.values).sort()).toEqual([
      'co2',
      'humidity',
      'pm10',
      'pm2_5',
      'temperature',
    ]);
    expect(Object.keys(mqtt.batches[0]![0]!.values).sort()).toEqual(['battery', 'rssi', 'temperature']);

    set(T0 + MINUTE);
    await sim.tick();
    set(T0 + 2 * MINUTE);
    await sim.tick();
    expect(https.batches.slice(2)).toEqual([
      [expect.objectContaining({ timestamp: MINUTE0 + MINUTE })],
      [expect.objectContaining({ timestamp: MINUTE0 + 2 * MINUTE })],
    ]);
    expect(sim.report()).toEqual([
      { deviceId: 'dev-https', link: 'https', sent: 92, waiting: 0, stopped: false },
      { deviceId: 'dev-mqtt', link: 'mqtt', sent: 12, waiting: 0, stopped: false },
    ]);
  });

  it('fills at most a day back, however old the newest reading (or with none)', async () => {
    const { clock } = testClock(T0);
    const old = recordingLink('https');
    const none = recordingLink('mqtt');
    const { simulator: sim } = simulator([device(old.link), device(none.link)], clock, (id) =>
      id === 'dev-https' ? MINUTE0 - 3 * 24 * HOUR : undefined,
    );
    await sim.tick();
    const day = minutes(MINUTE0 - DEMO_BACKFILL_MS + MINUTE, MINUTE0);
    expect(day).toHaveLength(24 * 60);
    expect(old.times()).toEqual(day);
    expect(none.times()).toEqual(day);
    expect(old.batches.every((batch) => batch.length <= 60)).toBe(true);
  });

  it('leaves the silent windows out of the backfill and of the live minutes, and reports again after', async () => {
    // Started at 10:00:30, an hour after the newest reading: the 07:40 window lies before it, the 10:40 one ahead.
    const { clock, set } = testClock(T0);
    const buoy = recordingLink('mqtt');
    const { simulator: sim } = simulator(
      [device(buoy.link, { silence: BUOY_SILENCE })],
      clock,
      () => MINUTE0 - 3 * HOUR,
    );
    await sim.tick();
    const backfilled = buoy.times();
    expect(backfilled).toHaveLength(180 - 20);
    expect(backfilled.some((t) => t >= Date.UTC(2026, 4, 12, 7, 40) && t < Date.UTC(2026, 4, 12, 8, 0))).toBe(false);
    for (let minute = 1; minute <= 70; minute++) {
      set(T0 + minute * MINUTE);
      await sim.tick();
    }
    const live = buoy.times().slice(backfilled.length);
    const expected = minutes(MINUTE0 + MINUTE, MINUTE0 + 70 * MINUTE).filter(
      (t) => t < Date.UTC(2026, 4, 12, 10, 40) || t >= Date.UTC(2026, 4, 12, 11, 0),
    );
    expect(live).toEqual(expected);
  });

  it('keeps what a link did not take and sends it first at the next minute', async () => {
    const { clock, set } = testClock(T0);
    const flaky = recordingLink('https', ['retry', 'retry']);
    const { simulator: sim, lines } = simulator([device(flaky.link)], clock, () => MINUTE0 - 2 * MINUTE);
    await sim.tick();
    set(T0 + MINUTE);
    await sim.tick();
    expect(sim.report()[0]).toMatchObject({ sent: 0, waiting: 3 });
    set(T0 + 2 * MINUTE);
    await sim.tick();
    expect(flaky.batches.map((b) => b.map((r) => r.timestamp))).toEqual([
      minutes(MINUTE0 - MINUTE, MINUTE0),
      minutes(MINUTE0 - MINUTE, MINUTE0 + MINUTE),
      minutes(MINUTE0 - MINUTE, MINUTE0 + 2 * MINUTE),
    ]);
    expect(sim.report()[0]).toMatchObject({ sent: 4, waiting: 0 });
    // One line when it starts failing, one when it recovers: not one a minute.
    expect(lines.filter((line) => line.includes('kept for the next minute'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('sending again'))).toHaveLength(1);
  });

  it('drops a batch refused as it is, and stops a device whose credential is refused while the others go on', async () => {
    const { clock, set } = testClock(T0);
    const bad = recordingLink('https', ['dropped']);
    const revoked = recordingLink('mqtt', ['refused']);
    const { simulator: sim, lines } = simulator(
      [device(bad.link), device(revoked.link)],
      clock,
      () => MINUTE0 - 61 * MINUTE,
    );
    await sim.tick();
    // The first hour's batch was refused and dropped; the next minute's went.
    expect(bad.batches.map((b) => b.length)).toEqual([60, 1]);
    set(T0 + MINUTE);
    await sim.tick();
    expect(bad.batches).toHaveLength(3);
    expect(revoked.batches).toHaveLength(1);
    expect(sim.report()[1]).toMatchObject({ sent: 0, waiting: 0, stopped: true });
    expect(lines).toContainEqual(expect.stringContaining('dev-mqtt (MQTT): refused (as told)'));
  });

  it('ticks a second after each minute turns until stopped, then closes its links', async () => {
    const { clock, set, timers } = testClock(T0);
    const link = recordingLink('https');
    const { simulator: sim } = simulator([device(link.link)], clock, () => MINUTE0 - MINUTE);
    await sim.start();
    expect(timers.map((t) => t.at)).toEqual([MINUTE0 + MINUTE + 1_000]);
    set(MINUTE0 + MINUTE + 1_000);
    timers[0]!.run();
    await sim.stop();
    expect(link.times()).toEqual([MINUTE0, MINUTE0 + MINUTE]);
    // The tick in hand finished; nothing further is scheduled.
    expect(timers).toHaveLength(1);
    expect(link.closed()).toBe(1);
  });
});
