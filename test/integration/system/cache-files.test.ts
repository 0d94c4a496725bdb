import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import type { CacheFile } from '../../../shared/contracts/system';
import { chartObjectKey, periodOf } from '../../../shared/sensor-data/chart-files';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf, uniqueId } from '../../support/stack';

/**
 * The cache files (docs/system.md, "Cache files") through the local gateway: a data repair writes readings straight
 * into the readings table, as a migration or a hand fix would, so no roll-up runs and the charts miss them; loading
 * the device's cache files for the range rebuilds them through the sensor-data worker and the next chart shows the
 * readings; evicting a file takes them off the chart, and evicting with rebuild brings them back.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const guest = () => apiAs('sensor-data');

/** Polls the cache tool itself until `done` holds of the device's files: what staff see on the page. */
const until = async (
  read: () => Promise<CacheFile[]>,
  done: (files: CacheFile[]) => boolean,
  what: string,
): Promise<CacheFile[]> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = await read();
    if (done(files)) return files;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(files)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

describe('cache files through the local gateway', () => {
  let employee: ReturnType<typeof apiAs<'system'>>;
  let admin: ReturnType<typeof apiAs<'system'>>;
  let deviceId: string;
  /**
   * 10:00 UTC three days back (the readings from 20 past it to 13:10, on one day and so in one month's hour file):
   * well inside the free tier's 7 days, away from hour, day and month boundaries.
   */
  let hour: number;
  let hourFile: string;

  const files = async () => (await employee.listCacheFiles({ params: { deviceId } })).files;
  /** Six days of chart: long enough that the series reads the hourly chart-data files, not the raw readings. */
  const chartedHours = async () => {
    const series = await guest().series({ params: { id: deviceId }, query: { from: Date.now() - 6 * DAY } });
    const mean = series.series.pm2_5?.mean ?? [];
    return series.t.filter((_, i) => mean[i] !== null && mean[i] !== undefined);
  };

  beforeAll(async () => {
    employee = apiAs('system', await tokenOf('employee@example.com'));
    admin = apiAs('system', await tokenOf('admin@example.com'));
    deviceId = (await freshDevice({ visibility: 'public' })).id;
    hour = Math.floor((Date.now() - 3 * DAY) / DAY) * DAY + 10 * HOUR;
    hourFile = chartObjectKey(deviceId, 'hour', periodOf('hour', hour));
    // The repair: three hours of 10-minute readings, written past ingest (no roll-up message is sent).
    const readings = Array.from({ length: 18 }, (_, i) => ({
      timestamp: hour + 20 * MINUTE + i * 10 * MINUTE,
      values: { pm2_5: 10 + Math.floor(i / 6) },
    }));
    await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
      deviceId,
      readings,
      Date.now(),
    );
  });

  it('before a rebuild the device has no files and its chart misses the repaired readings', async () => {
    expect(await files()).toEqual([]);
    expect(await chartedHours()).toEqual([]);
  });

  it('load rebuilds the files of the range, and the next chart shows the readings', async () => {
    const rebuild = await employee.loadCacheFiles({
      body: { options: { deviceId, from: hour - HOUR + 5 * MINUTE, to: hour + 4 * HOUR - 5 * MINUTE } },
    });
    expect(rebuild).toMatchObject({ deviceId, from: hour - HOUR, to: hour + 4 * HOUR - 1, hours: 5 });
    expect(rebuild.files.map((f) => f.key)).toEqual(expect.arrayContaining([hourFile]));
    expect(rebuild.files.map((f) => f.resolution)).toEqual(expect.arrayContaining(['hour', 'day']));

    const written = await until(
      files,
      (listed) => rebuild.files.every((f) => listed.some((l) => l.key === f.key)),
      'the rebuilt files',
    );
    const file = written.find((f) => f.key === hourFile)!;
    expect(file).toMatchObject({ resolution: 'hour', period: periodOf('hour', hour) });
    expect(file.bytes).toBeGreaterThan(0);
    // S3 keeps whole seconds.
    expect(file.lastModified).toBeGreaterThanOrEqual(Math.floor(rebuild.requestedAt / 1000) * 1000);

    expect(await chartedHours()).toEqual([hour, hour + HOUR, hour + 2 * HOUR, hour + 3 * HOUR]);
  });

  it('evicting the hour file takes the readings off the chart; evicting with rebuild brings them back', async () => {
    const period = periodOf('hour', hour);
    const evicted = await admin.deleteItemsFromCache({
      body: { pathObjectsArray: [{ deviceId, resolution: 'hour', period }] },
    });
    expect(evicted.deleted).toEqual([{ key: hourFile, resolution: 'hour', period }]);
    expect(evicted.rebuilds).toEqual([]);
    expect((await files()).map((f) => f.key)).not.toContain(hourFile);
    expect(await chartedHours()).toEqual([]);

    const again = await admin.deleteItemsFromCache({
      body: { pathObjectsArray: [{ deviceId, resolution: 'hour', period }], options: { rebuild: true } },
    });
    // Already gone: nothing named, nothing to rebuild.
    expect(again).toMatchObject({ deleted: [], notFound: [{ deviceId, resolution: 'hour', period }], rebuilds: [] });

    const all = await admin.deleteItemsFromCache({
      body: { pathObjectsArray: [{ deviceId }], options: { rebuild: true } },
    });
    expect(all.deleted.map((f) => f.key)).toEqual(
      expect.arrayContaining([chartObjectKey(deviceId, 'day', periodOf('day', hour))]),
    );
    expect(all.deleted.map((f) => f.key)).not.toContain(hourFile);
    expect(all.rebuilds).toHaveLength(1);
    expect(all.rebuilds[0]!.files.map((f) => f.key)).toEqual(expect.arrayContaining([hourFile]));
    await until(files, (listed) => listed.some((f) => f.key === hourFile), 'the evicted file to come back');
    expect(await chartedHours()).toEqual([hour, hour + HOUR, hour + 2 * HOUR, hour + 3 * HOUR]);
  });

  it('refuses an unknown device, a reversed or too long range and a period without its resolution', async () => {
    const unknown = await apiRejection(
      employee.loadCacheFiles({ body: { options: { deviceId: uniqueId('ghost'), from: Date.now() - DAY } } }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.message).toMatch(/^Device not found: ghost-/);
    const long = await apiRejection(
      employee.loadCacheFiles({ body: { options: { deviceId, from: Date.now() - 400 * DAY } } }),
    );
    expect([long.status, long.message]).toEqual([400, 'One rebuild covers at most 366 days: split the range']);
    const reversed = await apiRejection(
      employee.loadCacheFiles({ body: { options: { deviceId, from: Date.now() - DAY, to: Date.now() - 2 * DAY } } }),
    );
    expect(reversed.status).toBe(400);
    const path = await apiRejection(
      admin.deleteItemsFromCache({ body: { pathObjectsArray: [{ deviceId, period: '2026-01' }] } }),
    );
    expect(path.status).toBe(400);
    expect(path.body.issues).toEqual([
      { path: 'body.pathObjectsArray.0.resolution', message: 'a period needs its resolution' },
    ]);
  });

  it('lets Employees rebuild but only Administrators evict', async () => {
    const refused = await apiRejection(employee.deleteItemsFromCache({ body: { pathObjectsArray: [{ deviceId }] } }));
    expect([refused.status, refused.message]).toEqual([403, 'This action requires the Administrators role']);
    expect((await files()).length).toBeGreaterThan(0);
  });
});
