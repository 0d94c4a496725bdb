import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { ParquetReader } from '@dsnp/parquetjs';
import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import { EXPORT_STARTS_PER_HOUR, type ExportJob } from '../../../shared/contracts/sensor-data-exports';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { nextHourStart, wellInsidePeriod } from '../../support/clock';
import { freshUser } from '../../support/people';
import { untilQueueEmpty } from '../../support/queues';
import { freshDevice, ingest, setTier } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, s3Client, sqsClient, stack } from '../../support/stack';

/**
 * Downloads through the local gateway and the sensor-data queue's worker: the file's rows are the readings
 * seeded, the tier's download window applies (public for guests, permissioned for members), the job is
 * idempotent on redelivery, and POST /api/aws signs a file only for whoever may read it.
 */

const MINUTE = 60_000;
const store = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });

/** Polls an export until it is done (or failed), keeping the progress values seen. */
const waitForExport = async (id: string, token?: string, timeoutMs = 30_000) => {
  const sensorData = apiAs('sensor-data', token);
  const seen: number[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await sensorData.getExport({ params: { exportId: id } });
    seen.push(job.progress);
    if (job.status === 'done' || job.status === 'failed') return { job, seen };
    if (Date.now() > deadline) throw new Error(`Export ${id} still ${job.status} at ${job.progress} %`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const download = async (job: ExportJob, token?: string) => (await downloadBytes(job, token)).toString('utf8');

const downloadBytes = async (job: ExportJob, token?: string) => {
  const { url, expiresAt } = await apiAs('api', token).aws({
    body: { action: 'getSignedS3Url', params: { bucket: job.file!.bucket, key: job.file!.key } },
  });
  expect(expiresAt).toBeGreaterThan(Date.now() + 4 * MINUTE);
  expect(expiresAt).toBeLessThanOrEqual(Date.now() + 5 * MINUTE);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

describe('downloads', () => {
  let now: number;
  let device: Awaited<ReturnType<typeof freshDevice>>;
  /** 3 days of readings every 10 minutes, some without temperature, the newest 10 minutes ago. */
  let seeded: { timestamp: number; values: Record<string, number> }[];

  beforeAll(async () => {
    now = Math.floor(Date.now() / MINUTE) * MINUTE;
    device = await freshDevice({ productLine: 'sd1' });
    await setTier(device.id, 'tier1');
    seeded = Array.from({ length: 3 * 144 }, (_, i) => ({
      timestamp: now - (i + 1) * 10 * MINUTE,
      values: (i % 7 === 0 ? { pm2_5: i / 4 } : { pm2_5: i / 4, temperature: -5 + (i % 40) / 8 }) as Record<
        string,
        number
      >,
    })).reverse();
    await store().write(device.id, seeded, now);
  });

  it("writes a CSV of the range's readings, oldest first, with units in the header; progress reaches 100", async () => {
    const from = now - 2 * DAY_MS;
    const created = await apiAs('sensor-data', device.ownerToken).createExport({
      params: { id: device.id },
      body: { from, to: now, format: 'csv' },
    });
    expect(created).toMatchObject({ status: 'queued', progress: 0, window: 'permissioned', from, to: now });
    const { job, seen } = await waitForExport(created.id, device.ownerToken);
    const expected = seeded.filter((r) => r.timestamp >= from);
    expect(job).toMatchObject({ status: 'done', progress: 100, rows: expected.length });
    expect(seen.every((p, i) => i === 0 || p >= seen[i - 1]!)).toBe(true);

    const text = await download(job, device.ownerToken);
    expect(Buffer.byteLength(text)).toBe(job.bytes);
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header).toBe('timestamp,iso_time,pm2_5 (µg/m³),temperature (°C)');
    expect(rows).toEqual(
      expected.map((r) =>
        [r.timestamp, new Date(r.timestamp).toISOString(), r.values.pm2_5, r.values.temperature ?? ''].join(','),
      ),
    );
  });

  it('writes Parquet that an independent reader reads back equal to the CSV of the same export', async () => {
    const from = now - 2 * DAY_MS;
    const exports = apiAs('sensor-data', device.ownerToken);
    const [csvStarted, parquetStarted] = await Promise.all(
      (['csv', 'parquet'] as const).map((format) =>
        exports.createExport({ params: { id: device.id }, body: { from, to: now, format } }),
      ),
    );
    const [csv, parquet] = await Promise.all(
      [csvStarted!, parquetStarted!].map(async (started) => (await waitForExport(started.id, device.ownerToken)).job),
    );
    expect(parquet).toMatchObject({ status: 'done', rows: csv!.rows, format: 'parquet' });
    expect(parquet!.file!.name).toMatch(/\.parquet$/);
    const bytes = await downloadBytes(parquet!, device.ownerToken);
    expect(bytes.length).toBe(parquet!.bytes);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');

    // Read with @dsnp/parquetjs, an implementation of its own (the writer is hyparquet-writer).
    const reader = await ParquetReader.openBuffer(bytes);
    const fields = reader.getSchema().fields;
    expect(fields.timestamp).toMatchObject({ primitiveType: 'INT64', originalType: 'TIMESTAMP_MILLIS' });
    expect(fields.pm2_5).toMatchObject({ primitiveType: 'DOUBLE', repetitionType: 'OPTIONAL' });
    const fromParquet: string[] = [];
    const cursor = reader.getCursor();
    for (let row = await cursor.next(); row; row = await cursor.next()) {
      const record = row as { timestamp: Date; pm2_5?: number | null; temperature?: number | null };
      fromParquet.push(
        [record.timestamp.getTime(), record.timestamp.toISOString(), record.pm2_5 ?? '', record.temperature ?? ''].join(
          ',',
        ),
      );
    }
    // Row groups are UTC days: two days and a bit of readings make three.
    expect(reader.metadata!.row_groups.length).toBe(
      new Set(seeded.filter((r) => r.timestamp >= from).map((r) => Math.floor(r.timestamp / DAY_MS))).size,
    );
    await reader.close();
    const [, ...csvRows] = (await download(csv!, device.ownerToken)).trimEnd().split('\r\n');
    expect(fromParquet).toEqual(csvRows);
  });

  it('writes the raw value and the quality flag beside each measurement when asked, in Parquet as in CSV', async () => {
    const calibrated = await freshDevice({ productLine: 'sd1' });
    await setTier(calibrated.id, 'tier1');
    const readings = seeded.slice(-12);
    // Through ingest, as a device sends them: its measurements known, each value's quality flagged.
    await ingest(calibrated, readings);
    const owner = apiAs('sensor-data', calibrated.ownerToken);
    await owner.addCalibration({
      params: { id: calibrated.id },
      body: {
        measurement: 'pm2_5',
        formula: { kind: 'linear', a: 2, b: 1 },
        effectiveFrom: readings[0]!.timestamp - MINUTE,
        note: 'Collocation',
      },
    });
    const body = { from: readings[0]!.timestamp, to: now, values: 'both', qualityColumns: true } as const;
    const [csvStarted, parquetStarted] = await Promise.all(
      (['csv', 'parquet'] as const).map((format) =>
        owner.createExport({ params: { id: calibrated.id }, body: { ...body, format } }),
      ),
    );
    const [csv, parquet] = await Promise.all(
      [csvStarted!, parquetStarted!].map(
        async (started) => (await waitForExport(started.id, calibrated.ownerToken)).job,
      ),
    );
    expect(parquet).toMatchObject({ status: 'done', values: 'both', qualityColumns: true, rows: readings.length });
    const [header, ...csvRows] = (await download(csv!, calibrated.ownerToken)).trimEnd().split('\r\n');
    expect(header).toBe(
      'timestamp,iso_time,pm2_5 (µg/m³),pm2_5_raw (µg/m³),pm2_5_quality,temperature (°C),temperature_raw (°C),temperature_quality',
    );

    const reader = await ParquetReader.openBuffer(await downloadBytes(parquet!, calibrated.ownerToken));
    const fields = reader.getSchema().fields;
    expect(fields.pm2_5_raw).toMatchObject({ primitiveType: 'DOUBLE', repetitionType: 'OPTIONAL' });
    expect(fields.pm2_5_quality).toMatchObject({ repetitionType: 'OPTIONAL' });
    const fromParquet: { timestamp: Date; [column: string]: unknown }[] = [];
    const cursor = reader.getCursor();
    for (let row = await cursor.next(); row; row = await cursor.next()) fromParquet.push(row as never);
    await reader.close();
    // The calibrated value beside the raw one the device sent, never changed; the uncalibrated one twice the same.
    const first = fromParquet[0]!;
    expect([first.pm2_5, first.pm2_5_raw]).toEqual([2 * readings[0]!.values.pm2_5! + 1, readings[0]!.values.pm2_5]);
    expect(fromParquet.every((row) => ['good', 'suspect', 'bad'].includes(String(row.pm2_5_quality)))).toBe(true);
    const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));
    expect(
      fromParquet.map((row) =>
        [
          row.timestamp.getTime(),
          row.timestamp.toISOString(),
          ...['pm2_5', 'pm2_5_raw', 'pm2_5_quality', 'temperature', 'temperature_raw', 'temperature_quality'].map(
            (column) => cell(row[column]),
          ),
        ].join(','),
      ),
    ).toEqual(csvRows);
  });

  it('writes JSON of the chosen measurements', async () => {
    const created = await apiAs('sensor-data', device.ownerToken).createExport({
      params: { id: device.id },
      body: { from: now - DAY_MS, format: 'json', measurements: ['temperature'] },
    });
    const { job } = await waitForExport(created.id, device.ownerToken);
    const doc = JSON.parse(await download(job, device.ownerToken));
    const expected = seeded.filter((r) => r.timestamp >= now - DAY_MS && r.values.temperature !== undefined);
    expect(doc.measurements).toEqual([{ name: 'temperature', unit: '°C' }]);
    expect(doc.readings).toEqual(
      expected.map((r) => ({
        timestamp: r.timestamp,
        time: new Date(r.timestamp).toISOString(),
        values: { temperature: r.values.temperature },
      })),
    );
    expect(job.rows).toBe(expected.length);
  });

  it('limits download starts per hour: a guest address gets 429 with Retry-After, another address still starts', async () => {
    const al = await freshDevice({ productLine: 'al30', visibility: 'public' });
    await setTier(al.id, 'tier1');
    const address = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    const start = (from: string) =>
      fetch(`${areaUrl('sensor-data')}/devices/${al.id}/exports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${from}, 127.0.0.1` },
        body: JSON.stringify({ format: 'csv', from: Date.now() - DAY_MS }),
      });
    const busy = address();
    // The count is per clock hour: start well inside one, or the reset would let the last start through.
    await wellInsidePeriod(nextHourStart, 30_000);
    // A refused request (here: before the public window) takes no slot.
    const refused = await fetch(`${areaUrl('sensor-data')}/devices/${al.id}/exports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': busy },
      body: JSON.stringify({ format: 'csv', from: Date.now() - 30 * DAY_MS }),
    });
    expect(refused.status).toBe(403);
    for (let i = 0; i < EXPORT_STARTS_PER_HOUR.guest; i++) expect((await start(busy)).status).toBe(202);
    const over = await start(busy);
    expect(over.status).toBe(429);
    const hourEnd = nextHourStart();
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.now() + retryAfter * 1000 - hourEnd)).toBeLessThan(5_000);
    expect(((await over.json()) as { message: string }).message).toBe(
      `At most ${EXPORT_STARTS_PER_HOUR.guest} downloads can be started an hour; the next one can start at ${new Date(hourEnd).toISOString().slice(11, 16)} UTC`,
    );
    expect((await start(address())).status).toBe(202);
  }, 120_000);

  it('applies the download windows: a guest gets the public one, a member the permissioned one, 403s name the tier', async () => {
    const al = await freshDevice({ productLine: 'al30', visibility: 'public' });
    // The free AL tier views only: no downloads for anyone, and Tier 1 unlocks them.
    const free = await apiRejection(
      apiAs('sensor-data').createExport({ params: { id: al.id }, body: { format: 'csv' } }),
    );
    expect(free.status).toBe(403);
    expect(free.message).toMatch(/Tier 1 unlocks them/);

    await setTier(al.id, 'tier1');
    const asGuest = await apiAs('sensor-data').createExport({ params: { id: al.id }, body: { format: 'csv' } });
    expect(asGuest.window).toBe('public');
    expect(Math.abs(asGuest.from - (Date.now() - 7 * DAY_MS))).toBeLessThan(MINUTE);
    const older = await apiRejection(
      apiAs('sensor-data').createExport({
        params: { id: al.id },
        body: { from: Date.now() - 8 * DAY_MS, format: 'csv' },
      }),
    );
    expect(older.status).toBe(403);
    expect(older.message).toMatch(/reach back 7 days on Tier 1 of AL30 devices; Tier 2 unlocks older data/);
    const stranger = await freshUser();
    expect(
      (await apiAs('sensor-data', stranger.token).createExport({ params: { id: al.id }, body: { format: 'csv' } }))
        .window,
    ).toBe('public');
    expect(
      (await apiAs('sensor-data', al.ownerToken).createExport({ params: { id: al.id }, body: { format: 'csv' } }))
        .window,
    ).toBe('permissioned');

    // sd1 Tier 1: 30 days for the owner; further back needs Tier 2; Tier 0 has no downloads.
    const owner = apiAs('sensor-data', device.ownerToken);
    const month = await owner.createExport({
      params: { id: device.id },
      body: { from: Date.now() - 29 * DAY_MS, format: 'csv' },
    });
    expect(month.window).toBe('permissioned');
    const beyond = await apiRejection(
      owner.createExport({ params: { id: device.id }, body: { from: Date.now() - 31 * DAY_MS, format: 'csv' } }),
    );
    expect(beyond.message).toMatch(/Tier 2 unlocks older data/);
    const tier0 = await freshDevice({ productLine: 'sd1' });
    const none = await apiRejection(
      apiAs('sensor-data', tier0.ownerToken).createExport({ params: { id: tier0.id }, body: { format: 'csv' } }),
    );
    expect(none.status).toBe(403);
    expect(none.message).toMatch(/Downloads are not included in Tier 0 of SD1 devices; Tier 1 unlocks them/);
  });

  it('refuses a private device to a guest (401) and to a stranger (403), and bad requests with 400', async () => {
    expect(
      (await apiRejection(apiAs('sensor-data').createExport({ params: { id: device.id }, body: { format: 'csv' } })))
        .status,
    ).toBe(401);
    const stranger = await freshUser();
    expect(
      (
        await apiRejection(
          apiAs('sensor-data', stranger.token).createExport({ params: { id: device.id }, body: { format: 'csv' } }),
        )
      ).status,
    ).toBe(403);
    const owner = apiAs('sensor-data', device.ownerToken);
    const reversed = await apiRejection(
      owner.createExport({ params: { id: device.id }, body: { from: now, to: now - MINUTE, format: 'csv' } }),
    );
    expect(reversed.status).toBe(400);
    expect(reversed.message).toMatch(/from ≤ to/);
    const format = await apiRejection(
      owner.createExport({ params: { id: device.id }, body: { format: 'xlsx' as never } }),
    );
    expect(format.message).toMatch(/Format must be csv, json or parquet/);
  });

  it("hides an export from everyone but its creator and staff, and lists one's own newest first", async () => {
    const owner = apiAs('sensor-data', device.ownerToken);
    const first = await owner.createExport({ params: { id: device.id }, body: { from: now - MINUTE, format: 'csv' } });
    const second = await owner.createExport({
      params: { id: device.id },
      body: { from: now - MINUTE, format: 'json' },
    });
    const stranger = await freshUser();
    expect(
      (await apiRejection(apiAs('sensor-data', stranger.token).getExport({ params: { exportId: first.id } }))).status,
    ).toBe(404);
    expect((await apiRejection(apiAs('sensor-data').getExport({ params: { exportId: first.id } }))).status).toBe(404);
    const staff = await freshUser({ groups: ['Employees'] });
    expect((await apiAs('sensor-data', staff.token).getExport({ params: { exportId: first.id } })).id).toBe(first.id);

    const mine = await owner.listMyExports({ query: { limit: 2 } });
    expect(mine.items.map((job) => job.id)).toEqual([second.id, first.id]);
    expect(mine.nextCursor).toBeDefined();
    expect((await apiAs('sensor-data', stranger.token).listMyExports({ query: {} })).items).toEqual([]);
  });

  it('is idempotent on redelivery: one object, the same rows', async () => {
    const created = await apiAs('sensor-data', device.ownerToken).createExport({
      params: { id: device.id },
      body: { from: now - DAY_MS, format: 'csv' },
    });
    const sqs = sqsClient();
    const queueUrl = stack().queues.sensorData!;
    const duplicate = JSON.stringify({ kind: 'export', exportId: created.id });
    const redeliver = () =>
      sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: duplicate,
          MessageGroupId: `export:${created.id}`,
          MessageDeduplicationId: randomUUID(),
        }),
      );
    await redeliver();
    const { job: first } = await waitForExport(created.id, device.ownerToken);
    const before = await download(first, device.ownerToken);
    await redeliver();
    await untilQueueEmpty(sqs, queueUrl, { timeoutMs: 20_000 });
    const after = await apiAs('sensor-data', device.ownerToken).getExport({ params: { exportId: created.id } });
    expect(after).toMatchObject({ status: 'done', rows: first.rows, bytes: first.bytes, updated: first.updated });
    expect(await download(after, device.ownerToken)).toBe(before);
    const objects = await s3Client().send(
      new ListObjectsV2Command({ Bucket: stack().buckets.exports!, Prefix: `exports/${device.id}/${created.id}` }),
    );
    expect(objects.Contents?.map((o) => o.Key)).toEqual([`exports/${device.id}/${created.id}.csv`]);
  });

  it('signs only what the caller may read (POST /api/aws getSignedS3Url)', async () => {
    const created = await apiAs('sensor-data', device.ownerToken).createExport({
      params: { id: device.id },
      body: { from: now - MINUTE * 30, format: 'csv' },
    });
    const { job } = await waitForExport(created.id, device.ownerToken);
    const stranger = await freshUser();
    const sign = (token: string | undefined, bucket: string, key: string) =>
      apiAs('api', token).aws({ body: { action: 'getSignedS3Url', params: { bucket, key } } });

    const foreign = await apiRejection(sign(stranger.token, job.file!.bucket, job.file!.key));
    expect(foreign.status).toBe(404);
    expect((await apiRejection(sign(undefined, job.file!.bucket, job.file!.key))).status).toBe(404);

    // A chart file is handed out whole, so only to someone who may see all of it (issue 19): the hourly file of the
    // month before last lies wholly inside Tier 2's 365 days, but starts before Tier 1's 30 on any day of this month
    // (last month's would not on 1 or 2 March, February's start being under 30 days back).
    const today = new Date(now);
    const earlier = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 2, 1)).toISOString().slice(0, 7);
    const chartKey = `charts/${device.id}/hour/${earlier}.json`;
    expect((await apiRejection(sign(undefined, 'chartData', chartKey))).status).toBe(401);
    expect((await apiRejection(sign(stranger.token, stack().buckets.chartData!, chartKey))).status).toBe(403);
    const partly = await apiRejection(sign(device.ownerToken, stack().buckets.chartData!, chartKey));
    expect([partly.status, partly.message]).toEqual([403, expect.stringMatching(/Tier 2 unlocks/)]);
    expect((await apiRejection(sign(device.ownerToken, 'chartData', `charts/${device.id}/day/x.json`))).status).toBe(
      400,
    );
    await setTier(device.id, 'tier2');
    try {
      expect((await sign(device.ownerToken, stack().buckets.chartData!, chartKey)).url).toContain(chartKey);
    } finally {
      await setTier(device.id, 'tier1');
    }

    const bucket = await apiRejection(sign(device.ownerToken, 'organizations-local-logofiles', 'logos/x.png'));
    expect(bucket.status).toBe(403);
    expect(bucket.message).toMatch(/only for the exports, chart-data and datasets buckets/);
    const action = await apiRejection(
      apiAs('api', device.ownerToken).aws({
        body: { action: 'putObject' as never, params: { bucket: 'exports', key: job.file!.key } },
      }),
    );
    expect(action.status).toBe(400);
    expect(action.message).toMatch(/action must be getSignedS3Url/);
  });
});
