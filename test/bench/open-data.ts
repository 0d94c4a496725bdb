import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { createFileFormatter } from '../../functions/_shared/exports/file-formatter';
import type { RunningStack } from '../../infra/local/stack';
import { STA_ROOT_PATH } from '../../shared/contracts/sensor-data-sta';
import { benchDevice } from './bench-device';
import type { countStoreCalls } from './store-calls';

/**
 * `npm run bench` section `open-data` (issue 41, docs/open-data.md): a SensorThings page of 1,000 Observations beside
 * our own readings route for the same rows (two pages of 500, its most); a year of one-minute readings as Parquet
 * beside CSV in bytes, both from the export formatters; and DuckDB's hourly mean over that Parquet file.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const RUNS = 30;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Medians of two operations, each run beside a run of the other (which goes first alternating), so that a change in
 * the machine's load (other engineers' tests on the shared cores) moves both rather than the one measured then; and
 * the CPU each took in this process (the client, the gateway, the handlers and the emulators all run here), which
 * load moves far less than time.
 */
const timedPair = async (a: () => Promise<void>, b: () => Promise<void>) => {
  for (let i = 0; i < 5; i++) {
    await a();
    await b();
  }
  const runs = { a: [] as number[], b: [] as number[] };
  const cpu = { a: 0, b: 0 };
  const run = async (which: 'a' | 'b', op: () => Promise<void>) => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await op();
    runs[which].push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu[which] += (used.user + used.system) / 1000;
  };
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      await run('a', a);
      await run('b', b);
    } else {
      await run('b', b);
      await run('a', a);
    }
  }
  return { aMs: median(runs.a), bMs: median(runs.b), aCpuMs: cpu.a / RUNS, bCpuMs: cpu.b / RUNS };
};

/** Bytes of the answers read, by URL: what each route sends for the same rows. */
const answered = new Map<string, number>();

const getJson = async (url: string, token: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const text = await response.text();
  answered.set(url, text.length);
  return JSON.parse(text) as Record<string, unknown>;
};

/** Slow daily swings with a little noise, one decimal: what a station sends. */
const valuesAt = (t: number, i: number) => ({
  pm2_5: Math.round((12 + 8 * Math.sin((t / DAY) * 2 * Math.PI) + (i % 7) / 3) * 10) / 10,
  temperature: Math.round((11 + 6 * Math.sin(((t - DAY / 4) / DAY) * 2 * Math.PI) + (i % 5) / 10) * 10) / 10,
  humidity: Math.round(60 + 20 * Math.sin((t / (3 * DAY)) * 2 * Math.PI) + (i % 3)),
});

export const benchOpenData = async (
  stack: Pick<RunningStack, 'info'>,
  {
    adminToken,
    ownerToken,
    storeCalls,
  }: { adminToken: string; ownerToken: string; storeCalls: ReturnType<typeof countStoreCalls> },
) => {
  const { info } = stack;
  const gateway = info.endpoints.gateway;

  // 1,000 readings a minute apart, ending a minute ago, sent through ingest as a device sends them.
  const device = await benchDevice(stack, { adminToken, ownerToken, serial: `BENCH-STA-${Date.now()}` });
  const end = Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE;
  const readings = Array.from({ length: 1_000 }, (_, i) => {
    const timestamp = end - (999 - i) * MINUTE;
    return { timestamp, values: valuesAt(timestamp, i) };
  });
  for (let start = 0; start < readings.length; start += 500) {
    const sent = await fetch(`${gateway}/data-ingress/readings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ readings: readings.slice(start, start + 500) }),
    });
    if (sent.status !== 200) throw new Error(`Ingest answered ${sent.status}: ${await sent.text()}`);
  }
  const from = readings[0]!.timestamp;
  const staUrl =
    `${gateway}/sensor-data${STA_ROOT_PATH}/Datastreams('${encodeURIComponent(device.id)}~pm2_5')/Observations` +
    '?$top=1000&$orderby=phenomenonTime%20desc';
  const readingsUrl = (offset: number) =>
    `${gateway}/sensor-data/devices/${encodeURIComponent(device.id)}/readings?from=${from}&to=${end}&limit=500&offset=${offset}`;
  // Both answer the same 1,000 rows, or the comparison means nothing.
  const staRows = ((await getJson(staUrl, ownerToken)).value as unknown[]).length;
  const ourRows = await Promise.all(
    [0, 500].map(async (o) => ((await getJson(readingsUrl(o), ownerToken)).items as unknown[]).length),
  );
  if (staRows !== 1_000 || ourRows[0]! + ourRows[1]! !== 1_000) {
    throw new Error(`Rows differ: SensorThings ${staRows}, readings ${ourRows.join(' + ')}`);
  }
  const staOnce = async () => {
    await getJson(staUrl, ownerToken);
  };
  const oursOnce = async () => {
    await getJson(readingsUrl(0), ownerToken);
    await getJson(readingsUrl(500), ownerToken);
  };
  const { aMs: staMs, bMs: oursMs, aCpuMs: staCpuMs, bCpuMs: oursCpuMs } = await timedPair(staOnce, oursOnce);
  // The store calls behind each (the gateway runs the handlers in this process), and the bytes each answers.
  const staCalls = await storeCalls.perRequest(staOnce, 5);
  const oursCalls = await storeCalls.perRequest(oursOnce, 5);
  const staBytes = answered.get(staUrl)!;
  const oursBytes = answered.get(readingsUrl(0))! + answered.get(readingsUrl(500))!;

  // A year of one-minute readings through the export formatters, a day's chunk at a time as the worker sends them.
  const yearEnd = Math.floor(Date.now() / DAY) * DAY;
  const yearStart = yearEnd - 365 * DAY;
  const meta = {
    deviceId: device.id,
    deviceName: 'bench',
    from: yearStart,
    to: yearEnd - 1,
    columns: [
      { name: 'pm2_5', unit: 'µg/m³' },
      { name: 'temperature', unit: '°C' },
      { name: 'humidity', unit: '%' },
    ],
  };
  const write = (format: 'csv' | 'parquet') => {
    const formatter = createFileFormatter(format, meta);
    const parts: Buffer[] = [];
    const add = (part: string | Uint8Array) =>
      parts.push(typeof part === 'string' ? Buffer.from(part) : Buffer.from(part));
    const started = performance.now();
    add(formatter.head());
    for (let day = yearStart; day < yearEnd; day += DAY) {
      add(
        formatter.chunk(
          Array.from({ length: 1_440 }, (_, i) => ({
            timestamp: day + i * MINUTE,
            values: valuesAt(day + i * MINUTE, i),
          })),
        ),
      );
    }
    add(formatter.tail());
    return { bytes: Buffer.concat(parts), rows: formatter.rows, ms: performance.now() - started };
  };
  const csv = write('csv');
  const parquet = write('parquet');

  // DuckDB (in the bench only) answers an hourly mean over that file, as a notebook would.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-parquet-'));
  const file = path.join(dir, 'year.parquet');
  writeFileSync(file, parquet.bytes);
  let duckMs = 0;
  let hours = 0;
  try {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const query =
      `SELECT date_trunc('hour', "timestamp") AS hour, avg(pm2_5) AS pm2_5 ` +
      `FROM read_parquet('${file}') GROUP BY 1 ORDER BY 1`;
    const started = performance.now();
    hours = (await duck.runAndReadAll(query)).getRows().length;
    duckMs = performance.now() - started;
    duck.closeSync();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  return { staMs, oursMs, staCpuMs, oursCpuMs, staCalls, oursCalls, staBytes, oursBytes, csv, parquet, duckMs, hours };
};

export const printOpenData = (r: Awaited<ReturnType<typeof benchOpenData>>) => {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log('\nOpen data (issue 41): SensorThings beside our readings route; a year as Parquet beside CSV\n');
  console.table([
    {
      measure: "GET …/Datastreams('…')/Observations?$top=1000&$orderby=phenomenonTime desc (median)",
      value: `${r.staMs.toFixed(1)} ms`,
    },
    { measure: 'our readings route, the same 1,000 rows (2 pages of 500, median)', value: `${r.oursMs.toFixed(1)} ms` },
    { measure: 'readings route time ÷ SensorThings time (goal ≥ 0.8)', value: (r.oursMs / r.staMs).toFixed(2) },
    {
      measure:
        '  CPU in this process per call (client, gateway, handlers, emulators): SensorThings; readings (2 pages)',
      value: `${r.staCpuMs.toFixed(1)} ms; ${r.oursCpuMs.toFixed(1)} ms (readings ÷ SensorThings ${(r.oursCpuMs / r.staCpuMs).toFixed(2)})`,
    },
    {
      measure: '  store calls (round trips): SensorThings; the readings route, both pages',
      value: `${r.staCalls.calls} (${r.staCalls.roundTrips}); ${r.oursCalls.calls} (${r.oursCalls.roundTrips})`,
    },
    {
      measure: '  bytes answered: SensorThings; the readings route, both pages',
      value: `${kb(r.staBytes)}; ${kb(r.oursBytes)}`,
    },
    {
      measure: `a year of one-minute readings (${r.parquet.rows.toLocaleString('en')} rows, 3 measurements): CSV`,
      value: `${mb(r.csv.bytes.length)} (written in ${(r.csv.ms / 1000).toFixed(1)} s)`,
    },
    {
      measure: '  as Parquet (hyparquet-writer, a row group per day)',
      value: `${mb(r.parquet.bytes.length)} (written in ${(r.parquet.ms / 1000).toFixed(1)} s)`,
    },
    { measure: 'Parquet ÷ CSV in bytes (goal ≤ 0.3)', value: (r.parquet.bytes.length / r.csv.bytes.length).toFixed(3) },
    {
      measure: `DuckDB: hourly mean of pm2_5 over that Parquet file (${r.hours.toLocaleString('en')} hours, goal < 1 s)`,
      value: `${r.duckMs.toFixed(0)} ms`,
    },
  ]);
};
