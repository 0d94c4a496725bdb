import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { chromium } from 'playwright-core';
import { createRelationTable } from '../../functions/_shared/relations/relation-table';
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
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import type { StackInfo } from '../../infra/local/stack-info';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { relationId } from '../../shared/relations/relation-types';
import type { countStoreCalls } from './store-calls';

/**
 * The campaign comparison bench (issue 16): one campaign of BENCH_CAMPAIGN_DEVICES devices (50), each with
 * BENCH_CAMPAIGN_DAYS (30) days of 10-minute readings of 4 measurements, rolled up by the worker's own function.
 * Then, as the campaign's manager (who reaches every device through the campaign, the dearest gate), the one
 * comparison request the page makes (ms, bytes raw and gzipped, store calls) beside the alternative of one
 * `GET /series` per device, 6 at a time as a browser sends them to one host; and in Chromium the time from opening
 * the campaign page inside the app (as its links do) to every chart painted, and from loading it by its address.
 * Prints nothing itself: returns the figures for test/bench/run.ts. The browser part needs the stack started with `web: true`.
 */

const MINUTE = 60_000;
const DAY = 24 * HOUR_MS;
const DEVICES = Number(process.env.BENCH_CAMPAIGN_DEVICES ?? 50);
const DAYS = Number(process.env.BENCH_CAMPAIGN_DAYS ?? 30);
const INTERVAL = 10 * MINUTE;
const RUNS = Number(process.env.BENCH_CAMPAIGN_RUNS ?? 5);
const MEASUREMENTS = ['pm2_5', 'temperature', 'humidity', 'co2'] as const;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** What a browser opens side by side to one host over HTTP/1.1 (the N-requests alternative's concurrency). */
const BROWSER_CONNECTIONS = 6;

export interface CampaignBenchFigures {
  devices: number;
  days: number;
  measurements: number;
  readings: number;
  seedSeconds: number;
  rollupSeconds: number;
  /** The width the page asked for (its chart's pixels): both shapes are measured with it. */
  width: number;
  /** GET /sensor-data/campaigns/{id}/series, median of RUNS. */
  oneMs: number;
  oneBytes: number;
  oneGzipBytes: number;
  points: number;
  resolution: string;
  oneCalls?: { calls: number; roundTrips: number };
  /** The chart-data objects it reads, straight from S3 side by side (median of RUNS): what any shape pays. */
  rawMs: number;
  rawObjects: number;
  rawBytes: number;
  /** One GET /sensor-data/devices/{id}/series per device, BROWSER_CONNECTIONS at a time (median of RUNS). */
  perDeviceMs: number;
  perDeviceBytes: number;
  perDeviceGzipBytes: number;
  /** Chromium: the campaign page opened inside the app (as its links do) → every chart painted (median of RUNS). */
  openMs?: number;
  /** Chromium: that opening → the comparison's request sent (the page's chunks, its first render). */
  clickToRequestMs?: number;
  /** Chromium: the campaign page loaded by its address (the app's start included) → every chart painted. */
  loadMs?: number;
  /** Chromium: the comparison's request sent → every chart painted; and its response received → painted. */
  requestToPaintMs?: number;
  responseToPaintMs?: number;
  /** The bytes the page received for the comparison (as Chromium decoded them). */
  pageBytes?: number;
}

/** A plausible day per device: a diurnal wave with a per-device offset and phase, so 50 lines differ. */
const valuesAt = (time: number, device: number): Record<string, number> => {
  const phase = ((time % DAY) / DAY) * 2 * Math.PI + device / 7;
  const noise = Math.sin(time / 7_919 + device) * 0.5;
  return {
    pm2_5: Math.round((8 + device / 5 + 6 * Math.sin(phase) + noise * 4) * 10) / 10,
    temperature: Math.round((14 + device / 10 + 5 * Math.sin(phase - 1) + noise) * 100) / 100,
    humidity: Math.round((50 + device / 3 + 15 * Math.cos(phase) + noise * 3) * 10) / 10,
    co2: Math.round(410 + device * 2 + 80 * Math.sin(phase + 0.5) + noise * 20),
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A GET through node:http, answering the body (the gateway does not compress; the gzipped size is computed). */
const getText = (url: string, token: string) =>
  new Promise<string>((resolve, reject) => {
    httpRequest(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}: ${body}`));
        else resolve(body);
      });
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

export const benchCampaign = async (
  info: StackInfo,
  tokenOf: (email: string) => Promise<string>,
  storeCalls?: ReturnType<typeof countStoreCalls>,
): Promise<CampaignBenchFigures> => {
  const credentials = LOCAL_CREDENTIALS;
  const gateway = info.endpoints.gateway;
  const client = <N extends 'devices' | 'campaigns'>(area: N, token: string) =>
    createAreaClient(AREAS[area], { baseUrl: `${gateway}/${area}`, getToken: () => token });
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
  const [adminToken, ownerToken, managerToken] = await Promise.all([
    tokenOf('admin@example.com'),
    tokenOf('user@example.com'),
    tokenOf('approved@example.com'),
  ]);

  // The devices: private, owned by Uma, a year of history on their tier; April runs the campaign and reaches
  // each device only through it (the campaign path: the dearest gate, a campaign window on every device).
  const stamp = Date.now().toString(36).toUpperCase();
  const deviceIds: string[] = [];
  await pool(
    Array.from({ length: DEVICES }, (_, i) => i),
    4,
    async (i) => {
      const serial = `CMP${stamp}${String(i).padStart(2, '0')}`;
      const { device, claimCode } = await client('devices', adminToken).register({
        body: { serial, productLine: 'sd1', model: 'SD1', firmwareVersion: '1.0.0', name: `Station ${i + 1}` },
      });
      await client('devices', ownerToken).claim({ body: { serial, claimCode } });
      await db.send(
        new PutCommand({
          TableName: info.tables.deviceSubscriptions!,
          Item: { deviceId: device.id, tier: 'tier2', status: 'active', updated: Date.now() },
        }),
      );
      deviceIds[i] = device.id;
    },
  );
  const end = Math.floor(Date.now() / INTERVAL) * INTERVAL - INTERVAL;
  const start = end - DAYS * DAY + INTERVAL;
  const campaign = await client('campaigns', managerToken).create({
    body: { name: `Comparison bench ${stamp}`, startsAt: start - HOUR_MS, endsAt: end + 30 * DAY },
  });
  const relations = createRelationTable({ db, tableName: info.tables.relations! });
  for (const deviceId of deviceIds) {
    const ends = { type: 'campaign-device' as const, referrerId: campaign.id, referentId: deviceId };
    await relations.put({ id: relationId(ends.type, campaign.id, deviceId), ...ends, created: Date.now() });
  }

  // Every device's readings as the readings store writes them, then the worker's own recompute of their hours.
  const readings = createReadingsStore({ db, tableName: info.tables.readings! });
  const seedStarted = performance.now();
  await pool(
    deviceIds.map((id, i) => ({ id, i })),
    4,
    async ({ id, i }) => {
      const batch: StoredReading[] = [];
      for (let t = start; t <= end; t += INTERVAL) batch.push({ timestamp: t, values: valuesAt(t, i) });
      await readings.write(id, batch, Date.now());
    },
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const deps = {
    readings,
    rollups: createRollupStore({ db, tableName: info.tables.rollups! }),
    charts: createChartDataStore({ s3, bucket: info.buckets.chartData! }),
    profiles: createQualityProfiles({ db, tableName: info.tables.dataQuality! }),
    now: Date.now,
  };
  const hours: number[] = [];
  for (let hour = Math.floor(start / HOUR_MS) * HOUR_MS; hour <= end; hour += HOUR_MS) hours.push(hour);
  const rollupStarted = performance.now();
  await pool(deviceIds, 4, async (deviceId) => {
    await recomputeRollups({ deviceId, hours }, deps);
  });
  const rollupSeconds = (performance.now() - rollupStarted) / 1000;

  // The browser first, to learn the width the page asks for: both API shapes are then measured at that width.
  let width = 1200;
  const paint: Pick<
    CampaignBenchFigures,
    'openMs' | 'clickToRequestMs' | 'loadMs' | 'requestToPaintMs' | 'responseToPaintMs' | 'pageBytes'
  > = {};
  if (info.endpoints.web) {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
      const page = await context.newPage();
      await page.goto(`${info.endpoints.web}/login?destination=${encodeURIComponent('/dashboard')}`);
      await page.getByTestId('login-email').fill('approved@example.com');
      await page.getByTestId('login-password').fill(DEMO_PASSWORD);
      await page.locator('[data-amplify-authenticator] form[data-amplify-form] button[type="submit"]').click();
      await page.getByTestId('dashboard-email').waitFor({ timeout: 60_000 });
      const opens: number[] = [];
      const clicks: number[] = [];
      const loads: number[] = [];
      const requests: number[] = [];
      const responses: number[] = [];
      const campaignPath = `/dashboard/campaigns/${encodeURIComponent(campaign.id)}`;
      for (let run = 0; run < RUNS; run++) {
        // A fresh page each run (the query cache lives in it), on a screen at rest without the dashboard's map, whose
        // start-up would hold the main thread; then the campaign opened inside the app, as its links do.
        await page.goto(`${info.endpoints.web}/dashboard/notifications`);
        await page.waitForLoadState('networkidle');
        const answered = page.waitForResponse((r) => r.url().includes(`/campaigns/${campaign.id}/series`), {
          timeout: 120_000,
        });
        await page.evaluate((path) => {
          performance.clearMarks();
          (window as unknown as { benchOpen: number }).benchOpen = performance.now();
          history.pushState(null, '', path);
          dispatchEvent(new PopStateEvent('popstate'));
        }, campaignPath);
        const response = await answered;
        width = Number(new URL(response.url()).searchParams.get('width') ?? width);
        paint.pageBytes = (await response.body()).length;
        await page
          .locator('[data-testid="comparison-chart"][data-painted]')
          .nth(MEASUREMENTS.length - 1)
          .waitFor({ timeout: 120_000 });
        const timing = await page.evaluate((url) => {
          const marks = performance.getEntriesByName('comparison-chart-painted');
          const last = marks[marks.length - 1]!.startTime;
          const requested = performance.getEntriesByName('comparison-requested')[0]!.startTime;
          const entry = performance
            .getEntriesByType('resource')
            .find((e) => e.name === url) as PerformanceResourceTiming;
          const clicked = (window as unknown as { benchOpen: number }).benchOpen;
          return {
            open: last - clicked,
            click: requested - clicked,
            request: last - requested,
            response: last - entry.responseEnd,
          };
        }, response.url());
        opens.push(timing.open);
        clicks.push(timing.click);
        requests.push(timing.request);
        responses.push(timing.response);

        // The same page loaded cold by its address: the app's start, sign-in restored, then the comparison.
        await page.goto(`${info.endpoints.web}${campaignPath}`);
        await page
          .locator('[data-testid="comparison-chart"][data-painted]')
          .nth(MEASUREMENTS.length - 1)
          .waitFor({ timeout: 120_000 });
        loads.push(
          await page.evaluate(() => performance.getEntriesByName('comparison-chart-painted').at(-1)!.startTime),
        );
      }
      paint.loadMs = Math.round(median(loads));
      paint.openMs = Math.round(median(opens));
      paint.clickToRequestMs = Math.round(median(clicks));
      paint.requestToPaintMs = Math.round(median(requests));
      paint.responseToPaintMs = Math.round(median(responses));
    } finally {
      await browser.close();
    }
  }

  // The one request the page makes, from the campaign's window as the page asks it.
  const oneUrl = `${gateway}/sensor-data/campaigns/${encodeURIComponent(campaign.id)}/series?width=${width}`;
  let body = '';
  const one = async () => {
    body = await getText(oneUrl, managerToken);
  };
  const timed = async (op: () => Promise<void>) => {
    const started = performance.now();
    await op();
    return performance.now() - started;
  };
  await one();
  const oneTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) oneTimes.push(await timed(one));
  const answer = JSON.parse(body) as { t: number[]; resolution: string; from: number; to: number };

  // The floor: the chart-data objects the comparison reads, straight from S3, side by side.
  let rawBytes = 0;
  let rawObjects = 0;
  const raw = async () => {
    const keys = deviceIds.flatMap((id) =>
      periodsBetween('hour', answer.from, answer.to).map((period) => chartObjectKey(id, 'hour', period)),
    );
    const texts = await Promise.all(
      keys.map((Key) =>
        s3
          .send(new GetObjectCommand({ Bucket: info.buckets.chartData!, Key }))
          .then((object) => object.Body!.transformToString('utf8')),
      ),
    );
    rawObjects = texts.length;
    rawBytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  };
  const rawTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) rawTimes.push(await timed(raw));

  // The alternative: each device's own series over the same range and width, as many requests as devices.
  const bodies: string[] = [];
  const perDevice = async () => {
    bodies.length = 0;
    await pool(deviceIds, BROWSER_CONNECTIONS, async (deviceId) => {
      bodies.push(
        await getText(
          `${gateway}/sensor-data/devices/${encodeURIComponent(deviceId)}/series?from=${answer.from}&to=${answer.to}&width=${width}`,
          managerToken,
        ),
      );
    });
  };
  await perDevice();
  const perDeviceTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) perDeviceTimes.push(await timed(perDevice));

  return {
    devices: DEVICES,
    days: DAYS,
    measurements: MEASUREMENTS.length,
    readings: DEVICES * Math.round((end - start) / INTERVAL + 1),
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    rollupSeconds: Math.round(rollupSeconds * 10) / 10,
    width,
    oneMs: Math.round(median(oneTimes)),
    oneBytes: Buffer.byteLength(body),
    oneGzipBytes: gzipSync(body).length,
    points: answer.t.length,
    resolution: answer.resolution,
    ...(storeCalls ? { oneCalls: await storeCalls.perRequest(one, 3) } : {}),
    rawMs: Math.round(median(rawTimes)),
    rawObjects,
    rawBytes,
    perDeviceMs: Math.round(median(perDeviceTimes)),
    perDeviceBytes: bodies.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
    perDeviceGzipBytes: bodies.reduce((sum, text) => sum + gzipSync(text).length, 0),
    ...paint,
  };
};
