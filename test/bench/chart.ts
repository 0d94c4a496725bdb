import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { chromium } from 'playwright-core';
import { createQualityProfiles } from '../../functions/_shared/sensor-data/quality-profile';
import { createReadingsStore, type StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { recomputeRollups } from '../../functions/sensor-data/domain/rollups-recompute';
import {
  chartObjectKey,
  createChartDataStore,
  HOUR_MS,
  periodsBetween,
} from '../../functions/sensor-data/store/chart-data-store';
import { createRollupStore } from '../../functions/sensor-data/store/rollup-store';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import type { StackInfo } from '../../infra/local/stack-info';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import type { countStoreCalls } from './store-calls';

/**
 * The chart bench (issue 6): one device with a year of 1-minute readings (525,600), its roll-ups and chart-data
 * objects computed by the roll-up worker's own function, then GET /series for the year (bytes, ms, store calls)
 * beside the raw S3 reads of the objects it reads, and the time from choosing "1 year" on the device page to every
 * uPlot canvas drawn in Chromium. Prints nothing itself: returns the figures for test/bench/run.ts. The browser part
 * needs the stack started with `web: true`.
 */

const MINUTE = 60_000;
const DAY = 24 * HOUR_MS;
const MINUTES = Number(process.env.BENCH_CHART_MINUTES ?? 525_600);
const SERIES_RUNS = Number(process.env.BENCH_CHART_SERIES_RUNS ?? 10);
const MEASUREMENTS = ['pm2_5', 'temperature', 'humidity', 'co2'] as const;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface ChartBenchFigures {
  readings: number;
  measurements: number;
  seedSeconds: number;
  rollupSeconds: number;
  /** GET /sensor-data/devices/{id}/series for the whole range, median of SERIES_RUNS. */
  seriesMs: number;
  seriesBytes: number;
  seriesGzipBytes: number;
  seriesPoints: number;
  resolution: string;
  /** The chart-data objects that GET /series reads, straight from S3 side by side (median of SERIES_RUNS). */
  rawMs: number;
  rawBytes: number;
  rawObjects: number;
  /** The store calls one GET /series makes (DynamoDB and S3), and how many of them follow one another. */
  seriesCalls?: { calls: number; roundTrips: number };
  /** From choosing the range on the device page to the last chart drawn; undefined without the web app. */
  paintMs?: number;
  /** From navigation to the first range's charts drawn (a cold page). */
  firstPaintMs?: number;
  /** Issue 39: from a calibration of the whole year posted to the reprocessing route answering idle. */
  reprocessSeconds: number;
  /** GET /series for the year with `values=both` and with `values=corrected` (the default), medians. */
  seriesBothMs: number;
  seriesCorrectedMs: number;
}

/** A plausible day: a diurnal wave and a little noise, so min, max and mean differ. */
const valuesAt = (time: number): Record<string, number> => {
  const phase = ((time % DAY) / DAY) * 2 * Math.PI;
  const noise = Math.sin(time / 7_919) * 0.5;
  return {
    pm2_5: Math.round((12 + 6 * Math.sin(phase) + noise * 4) * 10) / 10,
    temperature: Math.round((18 + 5 * Math.sin(phase - 1) + noise) * 100) / 100,
    humidity: Math.round((55 + 15 * Math.cos(phase) + noise * 3) * 10) / 10,
    co2: Math.round(420 + 80 * Math.sin(phase + 0.5) + noise * 20),
  };
};

const pool = async <T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
};

export const benchChart = async (
  info: StackInfo,
  tokenOf: (email: string) => Promise<string>,
  storeCalls?: ReturnType<typeof countStoreCalls>,
): Promise<ChartBenchFigures> => {
  const credentials = LOCAL_CREDENTIALS;
  const devices = (token: string) =>
    createAreaClient(AREAS.devices, { baseUrl: `${info.endpoints.gateway}/devices`, getToken: () => token });
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: info.region, endpoint: info.endpoints.dynamodb, credentials }),
  );
  const s3 = new S3Client({
    region: info.region,
    endpoint: info.endpoints.s3,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });

  // A public device on the tier that views a year, so a guest charts it (no sign-in in the browser).
  const serial = `CHART${Date.now().toString(36).toUpperCase()}`;
  const { device, claimCode } = await devices(await tokenOf('admin@example.com')).register({
    body: { serial, productLine: 'sd1', model: 'SD1', firmwareVersion: '1.0.0', name: 'Chart bench' },
  });
  const owner = devices(await tokenOf('user@example.com'));
  await owner.claim({ body: { serial, claimCode } });
  await owner.update({ params: { id: device.id }, body: { dataVisibility: 'public' } });
  await db.send(
    new PutCommand({
      TableName: info.tables.deviceSubscriptions!,
      Item: { deviceId: device.id, tier: 'tier2', status: 'active', updated: Date.now() },
    }),
  );

  // A year of minutes ending a minute ago, written as the readings store writes (batches, 8 in flight each).
  const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
  const start = end - (MINUTES - 1) * MINUTE;
  const readings = createReadingsStore({ db, tableName: info.tables.readings! });
  const CHUNK = 5_000;
  const chunks = Array.from({ length: Math.ceil(MINUTES / CHUNK) }, (_, i) => i);
  const seedStarted = performance.now();
  await pool(chunks, 4, async (chunk) => {
    const batch: StoredReading[] = [];
    for (let i = chunk * CHUNK; i < Math.min(MINUTES, (chunk + 1) * CHUNK); i++) {
      const timestamp = start + i * MINUTE;
      batch.push({ timestamp, values: valuesAt(timestamp) });
    }
    await readings.write(device.id, batch, Date.now());
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // The worker's own recompute, a month of hours per call, a few months at once; then one hour of each year
  // again, so each year's day object is written after every day of it exists.
  const deps = {
    readings,
    rollups: createRollupStore({ db, tableName: info.tables.rollups! }),
    charts: createChartDataStore({ s3, bucket: info.buckets.chartData! }),
    profiles: createQualityProfiles({ db, tableName: info.tables.dataQuality! }),
    now: Date.now,
  };
  const hours: number[] = [];
  for (let hour = Math.floor(start / HOUR_MS) * HOUR_MS; hour <= end; hour += HOUR_MS) hours.push(hour);
  const months = new Map<string, number[]>();
  for (const hour of hours) {
    const month = new Date(hour).toISOString().slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), hour]);
  }
  const rollupStarted = performance.now();
  await pool([...months.values()], 4, async (monthHours) => {
    await recomputeRollups({ deviceId: device.id, hours: monthHours }, deps);
  });
  const firstOfYears = [...new Map(hours.map((h) => [new Date(h).getUTCFullYear(), h])).values()];
  await recomputeRollups({ deviceId: device.id, hours: firstOfYears }, deps);
  const rollupSeconds = (performance.now() - rollupStarted) / 1000;

  // GET /series for the year as the page asks it (800 px wide), median of a few runs, each beside the raw reads of
  // the objects it reads (a guest of a public device: the device and subscription records, then those objects).
  // From "a year ago" at request time: seeding takes minutes, and the window is counted from now.
  const seriesUrl = () =>
    `${info.endpoints.gateway}/sensor-data/devices/${device.id}/series?from=${Date.now() - 365 * DAY + MINUTE}&width=800`;
  let body = '';
  const series = async () => {
    const response = await fetch(seriesUrl());
    body = await response.text();
    if (response.status !== 200) throw new Error(`GET /series answered ${response.status}: ${body}`);
  };
  let rawBytes = 0;
  let rawObjects = 0;
  const rawReads = async () => {
    const keys = periodsBetween('hour', Date.now() - 365 * DAY + MINUTE, Date.now()).map((period) =>
      chartObjectKey(device.id, 'hour', period),
    );
    // A period without readings has no object (BENCH_CHART_MINUTES below a year), as the series store takes it.
    const texts = await Promise.all(
      keys.map((Key) =>
        s3
          .send(new GetObjectCommand({ Bucket: info.buckets.chartData!, Key }))
          .then((object) => object.Body!.transformToString('utf8'))
          .catch((error: Error) => {
            if (error.name === 'NoSuchKey') return '';
            throw error;
          }),
      ),
    );
    rawObjects = texts.filter(Boolean).length;
    rawBytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  };
  const timed = async (op: () => Promise<void>) => {
    const started = performance.now();
    await op();
    return performance.now() - started;
  };
  const times: number[] = [];
  const rawTimes: number[] = [];
  for (let run = 0; run < SERIES_RUNS; run++) {
    rawTimes.push(await timed(rawReads));
    times.push(await timed(series));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const parsed = JSON.parse(body) as { t: number[]; resolution: string; series: Record<string, unknown> };
  const seriesBytes = Buffer.byteLength(body);

  // Issue 39: the year reprocessed after a calibration of all of it, posted through the API and worked by the stack's
  // own worker (a calendar month a step), timed until the reprocessing route answers idle. The device's record names
  // its measurements as ingest's would (the readings were written straight to the store).
  await db.send(
    new UpdateCommand({
      TableName: info.tables.devices!,
      Key: { id: device.id },
      UpdateExpression: 'ADD measurementNames :names',
      ExpressionAttributeValues: { ':names': new Set(MEASUREMENTS) },
    }),
  );
  const ownerToken = await tokenOf('user@example.com');
  const quality = createAreaClient(AREAS['sensor-data'], {
    baseUrl: `${info.endpoints.gateway}/sensor-data`,
    getToken: () => ownerToken,
  });
  const reprocessStarted = performance.now();
  await quality.addCalibration({
    params: { id: device.id },
    body: {
      measurement: 'pm2_5',
      formula: { kind: 'linear', a: 0.9, b: 1.5 },
      effectiveFrom: start,
      note: 'Bench: the year reprocessed',
    },
  });
  while ((await quality.reprocessing({ params: { id: device.id } })).status !== 'idle') {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const reprocessSeconds = (performance.now() - reprocessStarted) / 1000;
  // Then the year's series with the raw columns beside the corrected ones, against corrected only, alternating.
  const valuesTimes = { both: [] as number[], corrected: [] as number[] };
  for (let run = 0; run < SERIES_RUNS; run++) {
    for (const values of ['corrected', 'both'] as const) {
      valuesTimes[values].push(
        await timed(async () => {
          const response = await fetch(`${seriesUrl()}&values=${values}`);
          const text = await response.text();
          if (response.status !== 200) throw new Error(`GET /series answered ${response.status}: ${text}`);
        }),
      );
    }
  }

  const figures: ChartBenchFigures = {
    readings: MINUTES,
    measurements: MEASUREMENTS.length,
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    rollupSeconds: Math.round(rollupSeconds * 10) / 10,
    seriesMs: Math.round(median(times) * 10) / 10,
    seriesBytes,
    seriesGzipBytes: gzipSync(body).length,
    seriesPoints: parsed.t.length,
    resolution: parsed.resolution,
    rawMs: Math.round(median(rawTimes) * 10) / 10,
    rawBytes,
    rawObjects,
    ...(storeCalls ? { seriesCalls: await storeCalls.perRequest(series, 5) } : {}),
    reprocessSeconds: Math.round(reprocessSeconds * 10) / 10,
    seriesBothMs: Math.round(median(valuesTimes.both) * 10) / 10,
    seriesCorrectedMs: Math.round(median(valuesTimes.corrected) * 10) / 10,
  };
  if (!info.endpoints.web) return figures;

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    const painted = async (count: number, resolution: string) => {
      try {
        await page.waitForFunction(
          ([n, r]) =>
            document.querySelectorAll('[data-testid="sensor-chart"][data-painted]').length === n &&
            (document.querySelector('[data-testid="sensor-resolution"]')?.textContent ?? '').includes(r),
          [count, resolution] as const,
          { timeout: 120_000 },
        );
      } catch (error) {
        // Say what the page showed instead: the bench's only way to tell a slow chart from a broken page.
        const shown = await page
          .locator('body')
          .textContent()
          .catch(() => '');
        throw new Error(`The ${resolution} charts were not drawn: ${String(error)}\nThe page showed:\n${shown}`);
      }
    };
    const navigated = performance.now();
    await page.goto(`${info.endpoints.web}/dashboard/devices/${encodeURIComponent(device.id)}`);
    await painted(MEASUREMENTS.length, 'raw');
    figures.firstPaintMs = Math.round(performance.now() - navigated);

    // Timed in the page: from the click to the last chart's draw mark.
    await page.evaluate(() => {
      performance.clearMarks('sensor-chart-painted');
      (window as unknown as { chartClick: number }).chartClick = performance.now();
      (document.querySelector('[data-testid="sensor-range-1y"]') as HTMLButtonElement).click();
    });
    await painted(MEASUREMENTS.length, 'hour');
    figures.paintMs = Math.round(
      await page.evaluate(() => {
        const marks = performance.getEntriesByName('sensor-chart-painted');
        return marks[marks.length - 1]!.startTime - (window as unknown as { chartClick: number }).chartClick;
      }),
    );
  } finally {
    await browser.close();
  }
  return figures;
};
