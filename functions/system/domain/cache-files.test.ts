import type { CacheFile } from '../../../shared/contracts/system';
import { chartObjectKey, HOUR_MS, parseChartObjectKey } from '../../../shared/sensor-data/chart-files';
import { callerOf } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import type { RollupMessage } from '../../_shared/sensor-data/queue-messages';
import { createCacheFiles } from './cache-files';

const NOW = Date.UTC(2026, 10, 20, 15, 30); // 2026-11-20 15:30 UTC
const DAY = 24 * HOUR_MS;
const staff = callerOf('emp', ['Employees']);

const setup = (keys: string[] = [], known = ['dev-1']) => {
  const stored = new Map<string, CacheFile>(
    keys.map((key) => {
      const parsed = parseChartObjectKey(key);
      return [
        key,
        { key, resolution: parsed?.resolution ?? null, period: parsed?.period ?? null, bytes: 10, lastModified: 1 },
      ];
    }),
  );
  const sent: RollupMessage[] = [];
  const cacheFiles = createCacheFiles({
    log: silentLog,
    files: {
      list: async (deviceId) => [...stored.values()].filter((f) => f.key.startsWith(`charts/${deviceId}/`)),
      remove: async (removed) => {
        for (const key of removed) stored.delete(key);
      },
    },
    queue: {
      send: async (messages) => {
        sent.push(...messages);
      },
    },
    devices: { exists: async (id) => known.includes(id) },
    now: () => NOW,
  });
  return { cacheFiles, stored, sent };
};

describe('cache files', () => {
  it('load queues every hour of the range, a message per UTC month, and names the files they rewrite', async () => {
    const { cacheFiles, sent } = setup();
    const from = Date.UTC(2026, 9, 30, 22, 10); // 2026-10-30 22:10
    const to = Date.UTC(2026, 10, 2, 1, 5); // 2026-11-02 01:05
    const rebuild = await cacheFiles.load(staff, { deviceId: 'dev-1', from, to });
    expect(sent.map((m) => [m.deviceId, m.hours.length])).toEqual([
      ['dev-1', 26], // 22:00 on the 30th to 23:00 on the 31st
      ['dev-1', 26], // the 1st and 00:00, 01:00 on the 2nd
    ]);
    expect(sent[0]!.hours[0]).toBe(Date.UTC(2026, 9, 30, 22));
    expect(sent.every((m) => m.kind === 'rollup')).toBe(true);
    expect(rebuild).toMatchObject({
      deviceId: 'dev-1',
      from: Date.UTC(2026, 9, 30, 22),
      to: Date.UTC(2026, 10, 2, 2) - 1,
      hours: 52,
      messages: 2,
      requestedAt: NOW,
    });
    expect(rebuild.files.map((f) => f.key)).toEqual([
      chartObjectKey('dev-1', 'hour', '2026-10'),
      chartObjectKey('dev-1', 'hour', '2026-11'),
      chartObjectKey('dev-1', 'day', '2026'),
    ]);
  });

  it('load stops at now (nothing later exists) and defaults the end to now', async () => {
    const { cacheFiles, sent } = setup();
    const rebuild = await cacheFiles.load(staff, { deviceId: 'dev-1', from: NOW - 2 * HOUR_MS });
    expect(rebuild.hours).toBe(3); // 13:00, 14:00, 15:00
    expect(sent[0]!.hours.at(-1)).toBe(Date.UTC(2026, 10, 20, 15));
    expect((await cacheFiles.load(staff, { deviceId: 'dev-1', from: NOW - HOUR_MS, to: NOW + 30 * DAY })).hours).toBe(
      2,
    );
  });

  it('load refuses an unknown device (404), a reversed range and one over 366 days (400), queueing nothing', async () => {
    const { cacheFiles, sent } = setup();
    await expect(cacheFiles.load(staff, { deviceId: 'ghost', from: NOW - DAY })).rejects.toMatchObject({
      status: 404,
      message: 'Device not found: ghost',
    });
    await expect(
      cacheFiles.load(staff, { deviceId: 'dev-1', from: NOW - DAY, to: NOW - 2 * DAY }),
    ).rejects.toMatchObject({ status: 400, message: 'The range must end after it starts (from before to)' });
    await expect(cacheFiles.load(staff, { deviceId: 'dev-1', from: NOW - 367 * DAY })).rejects.toMatchObject({
      status: 400,
      message: 'One rebuild covers at most 366 days: split the range',
    });
    expect(sent).toHaveLength(0);
  });

  it('evict removes the files each path names (a device, a resolution, one file) and reports paths that named none', async () => {
    const keys = [
      chartObjectKey('dev-1', 'hour', '2026-10'),
      chartObjectKey('dev-1', 'hour', '2026-11'),
      chartObjectKey('dev-1', 'day', '2026'),
      chartObjectKey('dev-2', 'hour', '2026-11'),
      'charts/dev-2/notes.txt',
    ];
    const { cacheFiles, stored, sent } = setup(keys);
    const result = await cacheFiles.evict(
      staff,
      [
        { deviceId: 'dev-1', resolution: 'hour', period: '2026-10' },
        { deviceId: 'dev-1', resolution: 'hour', period: '2025-01' },
        { deviceId: 'dev-2' },
      ],
      { rebuild: false },
    );
    expect(result.deleted.map((f) => f.key)).toEqual([
      'charts/dev-1/hour/2026-10.json',
      'charts/dev-2/hour/2026-11.json',
      'charts/dev-2/notes.txt',
    ]);
    expect(result.notFound).toEqual([{ deviceId: 'dev-1', resolution: 'hour', period: '2025-01' }]);
    expect([...stored.keys()]).toEqual([
      chartObjectKey('dev-1', 'hour', '2026-11'),
      chartObjectKey('dev-1', 'day', '2026'),
    ]);
    expect(result.rebuilds).toEqual([]);
    expect(sent).toHaveLength(0);
    expect(result.evictedAt).toBe(NOW);
  });

  it("evict with rebuild queues each device's evicted periods again, up to now", async () => {
    const { cacheFiles, sent } = setup([
      chartObjectKey('dev-1', 'hour', '2026-11'),
      chartObjectKey('dev-1', 'hour', '2026-09'),
    ]);
    const result = await cacheFiles.evict(staff, [{ deviceId: 'dev-1', resolution: 'hour' }], { rebuild: true });
    expect(result.rebuilds).toHaveLength(1);
    const [rebuild] = result.rebuilds;
    // September whole (720 hours), November up to 15:00 on the 20th (19 days and 16 hours).
    expect(rebuild!.hours).toBe(720 + 19 * 24 + 16);
    expect(sent.map((m) => m.hours.length)).toEqual([720, 19 * 24 + 16]);
    expect(rebuild!.files.map((f) => f.key)).toEqual([
      chartObjectKey('dev-1', 'hour', '2026-09'),
      chartObjectKey('dev-1', 'hour', '2026-11'),
      chartObjectKey('dev-1', 'day', '2026'),
    ]);
  });

  it('lists a device’s files in key order', async () => {
    const { cacheFiles } = setup([chartObjectKey('dev-1', 'hour', '2026-11'), chartObjectKey('dev-1', 'day', '2026')]);
    expect((await cacheFiles.list('dev-1')).files.map((f) => f.key)).toEqual([
      'charts/dev-1/day/2026.json',
      'charts/dev-1/hour/2026-11.json',
    ]);
  });
});
