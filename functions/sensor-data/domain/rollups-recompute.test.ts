import type { ChartResolution } from '../../../shared/sensor-data/chart-files';
import { EMPTY_PROFILE } from '../../_shared/sensor-data/quality-profile';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import type { ChartObject } from './ports';
import type { RollupBucket } from './rollups';
import { type RollupDeps, recomputeRollups } from './rollups-recompute';

const HOUR = 3_600_000;
// 2026-11-28 14:00 UTC, and a time in the hour after it.
const H = Date.UTC(2026, 10, 28, 14);
const AFTER = H + HOUR + 90_000;

/** The readings, roll-ups and chart objects of one device in memory, with a failure to switch on. */
const world = () => {
  const readings: StoredReading[] = [];
  const buckets = new Map<string, { bucket: RollupBucket; doneAt?: number }>();
  const written: ChartObject[] = [];
  let clock = AFTER;
  let chartsFail = false;
  const key = (resolution: ChartResolution, ts: number) => `${resolution}#${ts}`;
  const deps: RollupDeps = {
    readings: {
      scan: async function* (_deviceId, { from, to }) {
        yield readings.filter((r) => r.timestamp >= from && r.timestamp <= to);
      },
    },
    rollups: {
      put: async (_deviceId, resolution, ts, bucket) => {
        if (Object.keys(bucket.m).length === 0) buckets.delete(key(resolution, ts));
        else buckets.set(key(resolution, ts), { bucket });
      },
      range: async (_deviceId, resolution, from, to) =>
        [...buckets]
          .filter(([k]) => k.startsWith(`${resolution}#`))
          .map(([k, { bucket }]) => ({ ts: Number(k.split('#')[1]), ...bucket }))
          .filter(({ ts }) => ts >= from && ts <= to)
          .sort((a, b) => a.ts - b.ts),
      markDone: async (_deviceId, hours, at) => {
        for (const hour of hours) {
          const bucket = buckets.get(key('hour', hour));
          if (bucket) bucket.doneAt = at;
        }
      },
      doneAt: async (_deviceId, hours) =>
        new Map(
          hours.flatMap((hour) => {
            const doneAt = buckets.get(key('hour', hour))?.doneAt;
            return doneAt === undefined ? [] : [[hour, doneAt] as [number, number]];
          }),
        ),
    },
    charts: {
      write: async (object) => {
        if (chartsFail) throw new Error('bucket down');
        written.push(object);
      },
    },
    profiles: { read: async () => EMPTY_PROFILE },
    now: () => clock,
  };
  return {
    deps,
    written,
    add: (timestamp: number, pm: number) => readings.push({ timestamp, values: { pm2_5: pm } }),
    at: (time: number) => {
      clock = time;
    },
    failCharts: (fail: boolean) => {
      chartsFail = fail;
    },
    hourMean: () => {
      const a = buckets.get(key('hour', H))?.bucket.m.pm2_5;
      return a ? a.s / a.n : undefined;
    },
  };
};

describe('a coalesced roll-up (recomputeRollups with the time its message was sent)', () => {
  it("an hour's sixty messages come due together: the first recomputes, those sent before it began are done", async () => {
    const w = world();
    for (let minute = 0; minute < 60; minute++) w.add(H + minute * 60_000 + 5_000, minute);
    const sent = Array.from({ length: 60 }, (_, minute) => H + minute * 60_000 + 6_000);
    const first = await recomputeRollups({ deviceId: 'd', hours: [H], sentAt: sent[0] }, w.deps);
    expect(first).not.toHaveProperty('skipped');
    expect(w.written).toHaveLength(2);
    expect(w.hourMean()).toBe(29.5);
    for (const sentAt of sent.slice(1)) {
      expect(await recomputeRollups({ deviceId: 'd', hours: [H], sentAt }, w.deps)).toEqual({
        deviceId: 'd',
        skipped: 'recomputed since sent',
      });
    }
    expect(w.written).toHaveLength(2);
  });

  it('a message sent while (or just before) the recompute ran is worked again: its readings may have been missed', async () => {
    const w = world();
    w.add(H + 60_000, 10);
    w.at(H + 120_000);
    await recomputeRollups({ deviceId: 'd', hours: [H] }, w.deps);
    // Written just before the recompute read, sent after it began: not done.
    w.add(H + 119_000, 20);
    expect(await recomputeRollups({ deviceId: 'd', hours: [H], sentAt: H + 119_500 }, w.deps)).not.toHaveProperty(
      'skipped',
    );
    expect(w.hourMean()).toBe(15);
  });

  it('a coalesced message stands for the batches that sent none: only a recompute begun once it was due does its work', async () => {
    const w = world();
    const due = H + HOUR + 60_000;
    w.add(H + 60_000, 10);
    w.at(H + 10 * 60_000);
    // A staff rebuild of the hour during the hour, after the coalesced message was sent at 00:01.
    await recomputeRollups({ deviceId: 'd', hours: [H] }, w.deps);
    // A batch at 00:20 sent no message of its own: the one due at the hour's end covers it.
    w.add(H + 20 * 60_000, 30);
    w.at(due + 5_000);
    expect(
      await recomputeRollups({ deviceId: 'd', hours: [H], sentAt: H + 61_000, notBefore: due }, w.deps),
    ).not.toHaveProperty('skipped');
    expect(w.hourMean()).toBe(20);
    // Another message of the hour, due at the same time, is done by that recompute.
    expect(
      await recomputeRollups({ deviceId: 'd', hours: [H], sentAt: H + 59 * 60_000, notBefore: due }, w.deps),
    ).toEqual({ deviceId: 'd', skipped: 'recomputed since sent' });
  });

  it('a recompute that failed before its charts were written marks nothing, so the retried message works again', async () => {
    const w = world();
    w.add(H + 60_000, 10);
    w.failCharts(true);
    await expect(recomputeRollups({ deviceId: 'd', hours: [H], sentAt: H + 61_000 }, w.deps)).rejects.toThrow(
      'bucket down',
    );
    w.failCharts(false);
    expect(await recomputeRollups({ deviceId: 'd', hours: [H], sentAt: H + 61_000 }, w.deps)).not.toHaveProperty(
      'skipped',
    );
    expect(w.written.map((o) => o.resolution)).toEqual(['hour', 'day']);
  });

  it('a message without a sent time, or listing an hour never recomputed, is always worked', async () => {
    const w = world();
    w.add(H + 60_000, 10);
    await recomputeRollups({ deviceId: 'd', hours: [H] }, w.deps);
    expect(await recomputeRollups({ deviceId: 'd', hours: [H] }, w.deps)).not.toHaveProperty('skipped');
    expect(
      await recomputeRollups({ deviceId: 'd', hours: [H, H + HOUR], sentAt: H + 61_000 }, w.deps),
    ).not.toHaveProperty('skipped');
  });
});
