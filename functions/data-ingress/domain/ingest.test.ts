import { silentLog } from '../../../test/support/log';
import type { CountChange } from '../../_shared/code-releases/device-updates';
import type { StoredTarget } from '../../_shared/code-releases/rollout-item';
import type { SensorDataMessage } from '../../_shared/sensor-data/queue-messages';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import type { RollupCoalescing } from '../../_shared/sensor-data/rollup-coalescing';
import { createIngest } from './ingest';
import type { IngestCount, SeenDevice, SeenUpdate, StoredBatch } from './ports';

const NOW = Date.UTC(2025, 5, 1, 12, 30);
const HOUR = 3_600_000;

/** In-memory stand-ins for the stores: the readings table keyed by (device, timestamp) as the real one is. */
const world = ({
  known = true,
  sendFails = false,
  adoptionFails = false,
  device = {} as SeenDevice,
  coalescing = 'none' as RollupCoalescing,
  markFails = false,
  webhooksFail = false,
  hookFails = false,
} = {}) => {
  const handed: StoredBatch[] = [];
  let clock = NOW;
  let sendFailing = sendFails;
  const marks: number[] = [];
  const firmwareWrites: { version: string; at: number }[] = [];
  const reports: object[] = [];
  const moves: string[] = [];
  let target: StoredTarget = {
    rolloutId: 'r1',
    deviceId: 'dev',
    releaseId: 'sd1-1.4.2',
    version: '1.4.2',
    stage: 0,
    state: 'offered',
    assigned: NOW - HOUR,
    running: false,
  };
  const counted: CountChange[] = [];
  const stored = new Map<string, StoredReading>();
  const stats: Partial<Record<IngestCount, number>> = {};
  const seen: SeenUpdate[] = [];
  const sent: SensorDataMessage[] = [];
  const published: StoredReading[][] = [];
  const announced: { deviceId: string; timestamps: number[]; at: number }[] = [];
  const metrics: Record<string, number> = {};
  const ingest = createIngest({
    log: silentLog,
    readings: {
      write: async (deviceId, readings) => {
        for (const r of readings) stored.set(`${deviceId}#${r.timestamp}`, r);
      },
    },
    stats: {
      add: async (_deviceId, counts) => {
        for (const [k, n] of Object.entries(counts)) stats[k as IngestCount] = (stats[k as IngestCount] ?? 0) + n!;
      },
    },
    devices: {
      markSeen: async (_deviceId, update, quality) => {
        seen.push(update);
        if (!known) return undefined;
        const before = { ...device };
        const state = quality?.(device.qualityState);
        if (state) device.qualityState = state;
        return before;
      },
      reportFirmware: async (_deviceId, version, at) => {
        firmwareWrites.push({ version, at });
        device.firmwareVersion = version;
        return true;
      },
      markRollupSent: async (_deviceId, notBefore) => {
        if (markFails) throw new Error('devices table down');
        marks.push(notBefore);
        device.rollupSentFor = notBefore;
      },
    },
    adoption: {
      store: {
        setRunning: async (rolloutId, deviceId, report) => {
          if (adoptionFails) throw new Error('targets table down');
          reports.push({ rolloutId, deviceId, ...report });
          const before = { ...target };
          target = { ...target, running: report.running, reportedVersion: report.version };
          return before;
        },
        addCounts: async (_rolloutId, change) => {
          counted.push(change);
        },
      },
      updates: {
        move: async (_target, to) => {
          moves.push(to.state);
          return undefined;
        },
      },
    },
    work: {
      send: async (messages) => {
        if (sendFailing) throw new Error('queue down');
        sent.push(...messages);
      },
    },
    live: {
      publish: async (_deviceId, readings) => {
        published.push([...readings]);
        return 1;
      },
    },
    webhooks: {
      readingsStored: async (deviceId, readings, at) => {
        if (webhooksFail) throw new Error('webhooks table down');
        announced.push({ deviceId, timestamps: readings.map((r) => r.timestamp), at });
      },
    },
    now: () => clock,
    counters: {
      count: (name, value = 1) => {
        metrics[name] = (metrics[name] ?? 0) + value;
      },
      seconds: () => undefined,
    },
    coalescing,
    afterStored: [
      async (batch) => {
        if (hookFails) throw new Error('alerts down');
        handed.push(batch);
      },
    ],
  }).ingest;
  return {
    device,
    handed,
    ingest,
    stored,
    stats,
    seen,
    sent,
    published,
    announced,
    firmwareWrites,
    reports,
    moves,
    counted,
    metrics,
    marks,
    at: (time: number) => {
      clock = time;
    },
    failSends: (fail: boolean) => {
      sendFailing = fail;
    },
  };
};

describe('ingest', () => {
  it("tells the device's webhooks of the readings it stored (only the accepted ones), at the time it stored them", async () => {
    const w = world();
    await w.ingest('dev', {
      readings: [
        { timestamp: NOW - 60_000, values: { co2: 400 } },
        { timestamp: NOW + HOUR, values: { co2: 1 } },
      ],
    });
    expect(w.announced).toEqual([{ deviceId: 'dev', timestamps: [NOW - 60_000], at: NOW }]);
    // Nothing accepted, nothing told.
    await w.ingest('dev', { readings: [{ timestamp: NOW + HOUR, values: { co2: 1 } }] });
    expect(w.announced).toHaveLength(1);
  });

  it('fails the batch when the webhooks cannot be told, after the readings are stored: the device resends', async () => {
    const w = world({ webhooksFail: true });
    await expect(w.ingest('dev', { readings: [{ timestamp: NOW - 60_000, values: { co2: 400 } }] })).rejects.toThrow(
      'webhooks table down',
    );
    expect(w.stored.size).toBe(1);
  });

  it("with hourly roll-ups, the batch's message waits for its newest hour's end and the grace minute", async () => {
    const w = world({ coalescing: 'hour' });
    await w.ingest('dev', { readings: [{ timestamp: NOW - 60_000, values: { co2: 400 } }] });
    await w.ingest('dev', { readings: [{ timestamp: NOW - 5 * HOUR, values: { co2: 400 } }] });
    expect(w.sent).toEqual([
      { kind: 'rollup', deviceId: 'dev', hours: [Date.UTC(2025, 5, 1, 12)], notBefore: Date.UTC(2025, 5, 1, 13, 1) },
      // A backfill of an hour long over is recomputed at once.
      { kind: 'rollup', deviceId: 'dev', hours: [Date.UTC(2025, 5, 1, 7)] },
    ]);
  });

  it("with hourly roll-ups, only the hour's first batch sends: marked once SQS took it, the later ones find the mark", async () => {
    const w = world({ coalescing: 'hour' });
    const due = Date.UTC(2025, 5, 1, 13, 1);
    for (const minute of [30, 31, 45]) {
      w.at(Date.UTC(2025, 5, 1, 12, minute, 20));
      await w.ingest('dev', { readings: [{ timestamp: Date.UTC(2025, 5, 1, 12, minute), values: { co2: 400 } }] });
    }
    expect(w.sent).toEqual([{ kind: 'rollup', deviceId: 'dev', hours: [Date.UTC(2025, 5, 1, 12)], notBefore: due }]);
    expect(w.marks).toEqual([due]);
    expect(w.stored.size).toBe(3);
    // A late reading of the hour before rides with this hour's: the message on its way lists this hour only.
    w.at(Date.UTC(2025, 5, 1, 12, 50, 20));
    await w.ingest('dev', {
      readings: [
        { timestamp: Date.UTC(2025, 5, 1, 11, 59, 30), values: { co2: 400 } },
        { timestamp: Date.UTC(2025, 5, 1, 12, 50), values: { co2: 400 } },
      ],
    });
    expect(w.sent.at(-1)).toEqual({
      kind: 'rollup',
      deviceId: 'dev',
      hours: [Date.UTC(2025, 5, 1, 11), Date.UTC(2025, 5, 1, 12)],
      notBefore: due,
    });
    // Within half a minute of the due time a batch sends its own: the message on its way may read the hour first.
    w.at(due - 20_000);
    await w.ingest('dev', { readings: [{ timestamp: Date.UTC(2025, 5, 1, 12, 59, 30), values: { co2: 400 } }] });
    expect(w.sent).toHaveLength(3);
    // The next hour is a message of its own.
    w.at(Date.UTC(2025, 5, 1, 13, 5));
    await w.ingest('dev', { readings: [{ timestamp: Date.UTC(2025, 5, 1, 13, 4), values: { co2: 400 } }] });
    expect(w.sent.at(-1)).toEqual({
      kind: 'rollup',
      deviceId: 'dev',
      hours: [Date.UTC(2025, 5, 1, 13)],
      notBefore: Date.UTC(2025, 5, 1, 14, 1),
    });
  });

  it('a failed send leaves no mark, so the resent batch sends; a failed mark only costs the next batch a message', async () => {
    const w = world({ coalescing: 'hour' });
    const batch = { readings: [{ timestamp: NOW - 60_000, values: { co2: 400 } }] };
    w.failSends(true);
    await expect(w.ingest('dev', batch)).rejects.toThrow('queue down');
    expect(w.marks).toEqual([]);
    w.failSends(false);
    await w.ingest('dev', batch);
    expect(w.sent).toHaveLength(1);

    const unmarked = world({ coalescing: 'hour', markFails: true });
    expect((await unmarked.ingest('dev', batch)).accepted).toBe(1);
    await unmarked.ingest('dev', batch);
    expect(unmarked.sent).toHaveLength(2);
  });

  it('stores the good readings, counts every refusal by reason and hands one roll-up message with distinct hours', async () => {
    const w = world();
    const result = await w.ingest('dev', {
      readings: [
        { timestamp: NOW - 2 * HOUR, values: { co2: 400, soil: 3 } },
        { timestamp: NOW - 2 * HOUR + 60_000, values: { co2: 410 } },
        { timestamp: NOW, values: { co2: 420 } },
        { timestamp: NOW + HOUR, values: { co2: 1 } },
        { timestamp: 5, values: { co2: 1 } },
        { timestamp: NOW, values: { humidity: 101 } },
        'junk',
      ],
      units: { soil: '%vol', co2: 'mg', unused: 'x' },
    });
    expect(result.accepted).toBe(3);
    expect(result.rejected.map((r) => [r.index, r.reason])).toEqual([
      [3, 'future'],
      [4, 'too-old'],
      [5, 'out-of-range'],
      [6, 'malformed'],
    ]);
    expect(w.stored.size).toBe(3);
    expect(w.stats).toEqual({ accepted: 3, future: 1, 'too-old': 1, 'out-of-range': 1, malformed: 1 });
    expect(w.metrics).toEqual({ ReadingsAccepted: 3, ReadingsRefused: 4 });
    expect(w.sent).toEqual([
      { kind: 'rollup', deviceId: 'dev', hours: [Date.UTC(2025, 5, 1, 10), Date.UTC(2025, 5, 1, 12)] },
    ]);
    // Catalogue names keep the catalogue's unit; a declared unit is kept only for a name the batch used.
    expect(w.seen).toEqual([{ lastSeen: NOW, names: ['co2', 'soil'], units: { soil: '%vol' } }]);
    expect(w.published[0]).toHaveLength(3);
  });

  it('never sets lastSeen in the future for readings within the allowed clock skew', async () => {
    const w = world();
    await w.ingest('dev', { readings: [{ timestamp: NOW + 60_000, values: { co2: 400 } }] });
    expect(w.seen[0]!.lastSeen).toBe(NOW);
  });

  it('stores a resent batch once (same device and timestamps) and sends the same hours again', async () => {
    const w = world();
    const batch = {
      readings: [
        { timestamp: NOW - 1, values: { co2: 400 } },
        { timestamp: NOW - 2, values: { co2: 401 } },
      ],
    };
    await w.ingest('dev', batch);
    await w.ingest('dev', batch);
    expect(w.stored.size).toBe(2);
    expect(w.sent[0]).toEqual(w.sent[1]);
  });

  it('stores nothing and touches no device when every reading is refused, still counting them', async () => {
    const w = world();
    const result = await w.ingest('dev', { readings: [{ timestamp: 1, values: { co2: 1 } }] });
    expect(result).toMatchObject({ accepted: 0, device: 'ok' });
    expect(w.stats).toEqual({ 'too-old': 1 });
    expect([w.seen, w.sent, w.stored.size]).toEqual([[], [], 0]);
  });

  it('stores nothing for an unknown or retired device and counts the batch as such', async () => {
    const w = world({ known: false });
    const result = await w.ingest('ghost', { readings: [{ timestamp: NOW, values: { co2: 1 } }, 'junk'] });
    expect(result).toMatchObject({ accepted: 0, device: 'unknown' });
    expect(w.stats).toEqual({ 'unknown-device': 2 });
    expect([w.sent, w.stored.size]).toEqual([[], 0]);
    expect(w.metrics).toEqual({ ReadingsRefused: 2 });
  });

  it("flags each batch against the memory the device's record keeps, and hands the checks' new memory to its update", async () => {
    const w = world();
    const minute = (m: number, pm2_5: number) => ({ timestamp: NOW - HOUR + m * 60_000, values: { pm2_5 } });
    await w.ingest('dev', { readings: [minute(0, 10), minute(1, 11), minute(2, 10)] });
    expect(w.device.qualityState?.pm2_5?.p.map(([t]) => t)).toEqual([0, 1, 2].map((m) => minute(m, 0).timestamp));
    // A spike a batch later is one only against the values the first batch left in the memory.
    await w.ingest('dev', { readings: [minute(3, 400)] });
    expect(w.stored.get(`dev#${minute(3, 0).timestamp}`)?.flags).toEqual({ pm2_5: ['step_too_high'] });
    expect(w.published.at(-1)?.[0]?.flags).toEqual({ pm2_5: ['step_too_high'] });
    expect(w.device.qualityState?.pm2_5?.p).toHaveLength(4);
  });

  it('fails when the roll-up message cannot be sent, after the readings are stored (the device resends)', async () => {
    const w = world({ sendFails: true });
    await expect(w.ingest('dev', { readings: [{ timestamp: NOW, values: { co2: 1 } }] })).rejects.toThrow('queue down');
    expect(w.stored.size).toBe(1);
  });

  it("hands each stored batch to the work after it, with the device's lastSeen from before it; nothing when nothing was stored", async () => {
    const w = world({ device: { lastSeen: NOW - HOUR } });
    const readings = [
      { timestamp: NOW - 60_000, values: { pm2_5: 40 } },
      { timestamp: NOW - 120_000, values: { pm2_5: 38 } },
    ];
    await w.ingest('dev', { readings: [...readings, 'junk'] });
    await w.ingest('dev', { readings: [{ timestamp: 1, values: { co2: 1 } }] });
    expect(w.handed).toEqual([
      { deviceId: 'dev', readings, receivedAt: NOW, previousLastSeen: NOW - HOUR, alertsAtRest: false },
    ]);
  });

  it("tells the work after a batch what the device record's alert rest marks said", async () => {
    const w = world({ device: { lastSeen: NOW - HOUR, alertsAtRest: true } });
    await w.ingest('dev', { readings: [{ timestamp: NOW - 60_000, values: { pm2_5: 20 } }] });
    expect(w.handed).toMatchObject([{ deviceId: 'dev', alertsAtRest: true }]);
  });

  it('fails the batch when the work after it fails, after the readings are stored (the device resends)', async () => {
    const w = world({ hookFails: true });
    await expect(w.ingest('dev', { readings: [{ timestamp: NOW, values: { co2: 1 } }] })).rejects.toThrow(
      'alerts down',
    );
    expect(w.stored.size).toBe(1);
  });

  describe('firmware reports (docs/code-releases.md, "Adoption")', () => {
    const target = { releaseId: 'sd1-1.4.2', rolloutId: 'r1', version: '1.4.2', assigned: NOW - HOUR };
    const batch = (firmwareVersion?: string) => ({
      readings: [{ timestamp: NOW - 60_000, values: { co2: 400 } }],
      ...(firmwareVersion ? { firmwareVersion } : {}),
    });

    it('records a changed version as of the newest reading, and nothing when it is unchanged or absent', async () => {
      const w = world({ device: { firmwareVersion: '1.4.1' } });
      await w.ingest('dev', batch('1.4.2'));
      expect(w.firmwareWrites).toEqual([{ version: '1.4.2', at: NOW - 60_000 }]);
      await w.ingest('dev', batch('1.4.2'));
      await w.ingest('dev', batch());
      expect(w.firmwareWrites).toHaveLength(1);
      expect(w.reports).toEqual([]);
    });

    it("counts a targeted device's update once, and uncounts it when it moves to another version", async () => {
      const w = world({ device: { firmwareVersion: '1.4.1', firmwareTarget: target } });
      await w.ingest('dev', batch('1.4.2'));
      expect(w.reports).toEqual([
        { rolloutId: 'r1', deviceId: 'dev', version: '1.4.2', at: NOW - 60_000, running: true },
      ]);
      expect(w.counted).toEqual([{ adopted: 1 }]);
      // Running the release is the update succeeding, whatever the device reported of it before.
      expect(w.moves).toEqual(['succeeded']);
      await w.ingest('dev', batch('1.4.2'));
      expect(w.counted).toEqual([{ adopted: 1 }]);
      await w.ingest('dev', batch('1.4.1'));
      expect(w.counted).toEqual([{ adopted: 1 }, { adopted: -1 }]);
      expect(w.moves).toEqual(['succeeded']);
    });

    it('keeps the readings when the rollout records fail, and leaves the version for the next batch to report', async () => {
      const w = world({ device: { firmwareVersion: '1.4.1', firmwareTarget: target }, adoptionFails: true });
      expect(await w.ingest('dev', batch('1.4.2'))).toMatchObject({ accepted: 1 });
      expect(w.firmwareWrites).toEqual([]);
      expect(w.stored.size).toBe(1);
    });
  });
});
