import type { ChartResolution } from '../../../shared/sensor-data/chart-files';
import { silentLog } from '../../../test/support/log';
import { memoryQualityStore } from '../../../test/support/quality-store';
import { profileOf } from '../../_shared/sensor-data/quality-profile';
import type { StoredReading } from '../../_shared/sensor-data/readings-store';
import type { ChartObject } from './ports';
import { createReprocessJob, mergeRanges } from './reprocess-job';
import type { RollupBucket } from './rollups';

const HOUR = 3_600_000;
const JAN = Date.UTC(2026, 0, 20, 10);
const FEB = Date.UTC(2026, 1, 3, 7);
const NOW = Date.UTC(2026, 2, 1);

const world = () => {
  const memory = memoryQualityStore();
  const readings: StoredReading[] = [
    { timestamp: JAN + 60_000, values: { pm2_5: 10 } },
    { timestamp: JAN + 120_000, values: { pm2_5: 500 } },
    { timestamp: FEB + 60_000, values: { pm2_5: 20 } },
  ];
  const buckets = new Map<string, RollupBucket & { ts: number }>();
  const charts: ChartObject[] = [];
  const sent: (number | undefined)[] = [];
  let chartsFail = false;
  const key = (resolution: ChartResolution, ts: number) => `${resolution}#${ts}`;
  const job = createReprocessJob({
    store: memory.store,
    rollup: {
      readings: {
        scan: async function* (_d, { from, to }) {
          yield readings.filter((r) => r.timestamp >= from && r.timestamp <= to);
        },
      },
      rollups: {
        put: async (_d, resolution, ts, bucket) => {
          if (Object.keys(bucket.m).length) buckets.set(key(resolution, ts), { ts, ...bucket });
          else buckets.delete(key(resolution, ts));
        },
        range: async (_d, resolution, from, to) =>
          [...buckets]
            .filter(([k, b]) => k.startsWith(resolution) && b.ts >= from && b.ts <= to)
            .map(([, b]) => b)
            .sort((a, b) => a.ts - b.ts),
        markDone: async () => undefined,
        doneAt: async () => new Map(),
      },
      charts: {
        write: async (object) => {
          if (chartsFail) throw new Error('bucket down');
          charts.push(object);
        },
      },
      profiles: { read: async (deviceId) => profileOf(await memory.store.profile(deviceId)) },
      now: () => NOW,
    },
    work: {
      send: async (messages) => {
        for (const m of messages) if (m.kind === 'reprocess') sent.push(m.cursor);
      },
    },
    log: silentLog,
    now: () => NOW,
  });
  // What ingest's roll-ups left: each hour with its readings, computed before any change (no profile version).
  for (const r of readings) {
    const ts = Math.floor(r.timestamp / HOUR) * HOUR;
    const old = buckets.get(key('hour', ts));
    const v = r.values.pm2_5!;
    const m = old?.m.pm2_5;
    buckets.set(key('hour', ts), {
      ts,
      m: {
        pm2_5: m
          ? { n: m.n + 1, s: m.s + v, lo: Math.min(m.lo, v), hi: Math.max(m.hi, v) }
          : { n: 1, s: v, lo: v, hi: v },
      },
    });
  }
  const exclude = async (from: number, to: number, v: number) => {
    const stored = (await memory.store.profile('d')) ?? { deviceId: 'd', sk: 'profile' as const, version: 0 };
    await memory.store.saveProfile(
      {
        ...stored,
        version: v,
        exc: [...(stored.exc ?? []), { id: `exc_${v}`, from, to }],
        pending: [...(stored.pending ?? []), { v, from, to, kind: 'exclusion' }],
      },
      stored.version,
    );
  };
  return {
    ...memory,
    job,
    buckets,
    charts,
    sent,
    exclude,
    hour: (ts: number) => buckets.get(key('hour', Math.floor(ts / HOUR) * HOUR)),
    failCharts: (fail: boolean) => {
      chartsFail = fail;
    },
  };
};

describe('reprocessing a device after a change', () => {
  it('merges the pending ranges, hour-aligned', () => {
    expect(
      mergeRanges([
        { from: 5 * HOUR + 10, to: 6 * HOUR },
        { from: HOUR + 1, to: 2 * HOUR + 5 },
        { from: 2 * HOUR + 9, to: 3 * HOUR },
      ]),
    ).toEqual([
      { from: HOUR, to: 4 * HOUR - 1 },
      { from: 5 * HOUR, to: 7 * HOUR - 1 },
    ]);
  });

  it('recomputes a calendar month a step, each step sending the next, until the pending changes are settled', async () => {
    const w = world();
    await w.exclude(JAN + 90_000, FEB + 90_000, 1);
    expect(await w.job.step('d')).toBe('step');
    // January's hour no longer holds the excluded 500; February's is not done yet.
    expect(w.hour(JAN)?.m.pm2_5).toEqual({ n: 1, s: 10, lo: 10, hi: 10 });
    expect(w.hour(JAN)?.pv).toBe(1);
    expect(w.sent).toEqual([Date.UTC(2026, 1, 1)]);
    expect(w.jobs.get('d')).toMatchObject({ status: 'running', cursor: Date.UTC(2026, 1, 1) });
    expect(await w.job.step('d', w.sent[0])).toBe('done');
    expect(w.hour(FEB)).toBeUndefined();
    expect(w.jobs.get('d')).toMatchObject({ status: 'done' });
    expect(w.jobs.get('d')!.done).toBe(w.jobs.get('d')!.total);
    expect(w.profiles.get('d')!.pending).toBeUndefined();
    expect(w.profiles.get('d')!.version).toBe(1);
  });

  it('does nothing for a repeated message; a wake-up during a run takes it on, and the old chain stops', async () => {
    const w = world();
    await w.exclude(JAN, FEB, 1);
    await w.job.step('d');
    const cursor = w.sent[0];
    expect(await w.job.step('d', JAN)).toBe('skipped');
    expect(await w.job.step('d')).toBe('done');
    expect(await w.job.step('d', cursor)).toBe('skipped');
    expect(await w.job.step('d')).toBe('idle');
  });

  it('resumes after a failed step: the message comes back and does its month again, to the same result', async () => {
    const clean = world();
    await clean.exclude(JAN + 90_000, JAN + 150_000, 1);
    expect(await clean.job.step('d')).toBe('done');

    const w = world();
    await w.exclude(JAN + 90_000, JAN + 150_000, 1);
    w.failCharts(true);
    await expect(w.job.step('d')).rejects.toThrow('bucket down');
    // The run was started but not moved: the message's redelivery carries on from the same place.
    expect(w.jobs.get('d')).toMatchObject({ status: 'running', done: 0 });
    w.failCharts(false);
    // The wake-up comes back and carries the run on from where it stands.
    expect(await w.job.step('d')).toBe('done');
    expect([...w.buckets.values()]).toEqual([...clean.buckets.values()]);
  });

  it('starts a new run for changes made while one went on', async () => {
    const w = world();
    await w.exclude(JAN, JAN + 1, 1);
    await w.exclude(FEB, FEB + 1, 2);
    const first = w.jobs;
    await w.job.step('d');
    expect(first.get('d')!.through).toBe(2);
    await w.exclude(JAN + 60_000, JAN + 60_000, 3);
    expect(await w.job.step('d', w.sent.at(-1))).toBe('done');
    expect(w.profiles.get('d')!.pending?.map((p) => p.v)).toEqual([3]);
    expect(w.sent.at(-1)).toBeUndefined();
    expect(await w.job.step('d')).toBe('done');
    expect(w.profiles.get('d')!.pending).toBeUndefined();
  });
});
