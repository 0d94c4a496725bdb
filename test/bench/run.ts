import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import { dayOf, readingsKey } from '../../functions/_shared/sensor-data/readings-store';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { type RunningStack, startStack } from '../../infra/local/stack';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { untilQueueEmpty } from '../support/queues';
import { benchChart } from './chart';

/**
 * `npm run bench`: prints figures, asserts nothing. Each figure of our path stands beside the raw-store
 * baseline measured in the same run on the same emulator: authorized reads (a parameter, a relations list, a
 * tier-gated readings page), ingest through data-ingress, and a year of 1-minute data charted in Chromium.
 * The npm script sets LOG_LEVEL=warn: the logger reads it on import, before this module's body runs.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const credentials = LOCAL_CREDENTIALS;

const measure = async (label: string, op: () => Promise<unknown>) => {
  for (let i = 0; i < 50; i++) await op(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
  return { label, opsPerSecond: Math.round(latencies.length / seconds), p50: pct(0.5), p99: pct(0.99) };
};

// ---- Ingest (issue 6): readings/s through POST /data-ingress/readings beside raw BatchWriteItem ----------------

const INGEST_BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 40);
const INGEST_BATCH_SIZE = 500;
const INGEST_CONCURRENCY = Number(process.env.BENCH_INGEST_CONCURRENCY ?? 4);
const INGEST_ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);

/**
 * The same number of readings (batches of 500, a few at a time) once as raw BatchWriteItem calls into the
 * readings table (25 items a call, 8 calls in flight per batch, as the readings store writes) and once through
 * the gateway: credential check, per-reading validation, the device-record update, the stats count, the write,
 * the roll-up message and the live-watch lookup.
 */
const benchIngest = async (
  { info, pauseWorkers, resumeWorkers }: RunningStack,
  db: DynamoDBDocumentClient,
  adminToken: string,
  ownerToken: string,
) => {
  const devices = (token: string) =>
    createAreaClient(AREAS.devices, { baseUrl: `${info.endpoints.gateway}/devices`, getToken: () => token });
  const serial = `BENCH${Date.now().toString(36).toUpperCase()}`;
  const { device, claimCode } = await devices(adminToken).register({
    body: { serial, productLine: 'sd1', model: 'SD1', firmwareVersion: '1.0.0' },
  });
  await devices(ownerToken).claim({ body: { serial, claimCode } });
  const { token: credential } = await devices(ownerToken).createCredential({ params: { id: device.id } });

  // Distinct timestamps per run and batch (one reading a second, 5 days back), so every write is a new item.
  const start = Date.now() - 5 * 24 * 3_600_000;
  const batchAt = (run: number, batch: number) =>
    Array.from({ length: INGEST_BATCH_SIZE }, (_, i) => {
      const timestamp = start + ((run * INGEST_BATCHES + batch) * INGEST_BATCH_SIZE + i) * 1_000;
      return { timestamp, values: { pm2_5: (i % 50) + 0.5, co2: 400 + (i % 300), temperature: 21.5 } };
    });

  const run = async (label: string, send: (batch: number) => Promise<void>) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: INGEST_CONCURRENCY }, async () => {
        for (let batch = next++; batch < INGEST_BATCHES; batch = next++) await send(batch);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { label, readingsPerSecond: Math.round((INGEST_BATCHES * INGEST_BATCH_SIZE) / seconds) };
  };

  const rawDevice = `${device.id}-raw`;
  const rawRun = (round: number) =>
    run('raw BatchWriteItem into readings (dynalite)', async (batch) => {
      const receivedAt = Date.now();
      await batchWriteAll(
        db,
        info.tables.readings!,
        batchAt(2 * round, batch).map((r) => ({
          PutRequest: { Item: { ...readingsKey(rawDevice, r.timestamp), v: r.values, rcv: receivedAt } },
        })),
        { concurrency: 8 },
      );
    });
  const oursRun = (round: number) =>
    run('POST /data-ingress/readings via local gateway', async (batch) => {
      const response = await fetch(`${info.endpoints.gateway}/data-ingress/readings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        body: JSON.stringify({ readings: batchAt(2 * round + 1, batch) }),
      });
      if (response.status !== 200) throw new Error(`Ingest answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    });
  // The roll-ups our rounds queue are worked asynchronously, in the cloud by other Lambdas; here the worker
  // would share these two cores. So the rounds run with the workers held (after the queue has emptied), and the
  // roll-ups are timed on their own afterwards. Alternating rounds, best of each, for what noise remains.
  const sqs = new SQSClient({ region: info.region, endpoint: info.endpoints.sqs, credentials });
  const drained = () => untilQueueEmpty(sqs, info.queues.sensorData!);
  const raws: Awaited<ReturnType<typeof run>>[] = [];
  const ourRuns: Awaited<ReturnType<typeof run>>[] = [];
  await drained();
  await pauseWorkers();
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    raws.push(await rawRun(round));
    ourRuns.push(await oursRun(round));
  }
  const rollupStarted = performance.now();
  resumeWorkers();
  await drained();
  const rollupSeconds = (performance.now() - rollupStarted) / 1000;
  const best = (runs: typeof raws) => runs.reduce((a, b) => (b.readingsPerSecond > a.readingsPerSecond ? b : a));
  const raw = best(raws);
  const ours = best(ourRuns);
  console.log(
    `\nIngest (${INGEST_BATCHES} batches of ${INGEST_BATCH_SIZE} readings, ${INGEST_CONCURRENCY} at a time, best of ${INGEST_ROUNDS} alternating rounds)\n`,
  );
  console.table(
    [raw, ours].map((r, i) => ({
      measure: r.label,
      'readings/s': r.readingsPerSecond,
      rounds: (i === 0 ? raws : ourRuns).map((x) => x.readingsPerSecond).join(' / '),
    })),
  );
  console.log(
    `ingest via gateway / raw BatchWriteItem: ${((ours.readingsPerSecond / raw.readingsPerSecond) * 100).toFixed(0)} %`,
  );
  const ingested = INGEST_ROUNDS * INGEST_BATCHES * INGEST_BATCH_SIZE;
  console.log(
    `then the roll-up worker alone: ${INGEST_ROUNDS * INGEST_BATCHES} messages (${ingested.toLocaleString('en')} readings) in ${rollupSeconds.toFixed(1)} s = ${Math.round(ingested / rollupSeconds)} readings/s`,
  );
};

// -----------------------------------------------------------------------------------------------------------------

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-bench-'));
// The web app (Vite) only for the chart bench's browser part; BENCH_WEB=false skips it.
const withWeb = process.env.BENCH_WEB !== 'false';
const stack = await startStack({ rootDir, dataDir, ports: EPHEMERAL_PORTS, web: withWeb });
try {
  const { info } = stack;
  const cognito = new CognitoIdentityProviderClient({
    region: info.region,
    endpoint: info.endpoints.cognito,
    credentials,
  });
  const tokenOf = async (email: string) =>
    (
      await cognito.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: info.auth.clientId,
          AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
        }),
      )
    ).AuthenticationResult!.AccessToken!;
  const token = await tokenOf('employee@example.com');
  // Not staff: the demo graph makes this user a device user of demo-device-2 (see DEMO_RELATIONS).
  const memberToken = await tokenOf('user@example.com');
  const getOk = async (target: string, bearer: string) => {
    const response = await fetch(target, { headers: { authorization: `Bearer ${bearer}` } });
    if (response.status !== 200) throw new Error(`Unexpected ${response.status} from ${target}`);
    await response.arrayBuffer();
  };
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: info.region, endpoint: info.endpoints.dynamodb, credentials }),
  );
  const url = `${info.endpoints.gateway}/system/parameters/maintenance-mode`;

  const rows = [
    await measure('raw GetItem (dynalite)', () =>
      db.send(new GetCommand({ TableName: info.tables.parameters, Key: { id: 'maintenance-mode' } })),
    ),
    await measure('authorized GET /system/parameters/{id} via local gateway', () => getOk(url, token)),
    await measure('raw Query byReferrer index (dynalite)', () =>
      db.send(
        new QueryCommand({
          TableName: info.tables.relations,
          IndexName: 'byReferrer',
          KeyConditionExpression: 'referrerId = :id',
          ExpressionAttributeValues: { ':id': 'demo-device-2' },
          Limit: 10,
        }),
      ),
    ),
    // Token check, the caller's access version (one GetItem), a cached device-access decision, then the Query.
    await measure('object-checked GET /relations/listByReferrerId/{device}/10 via local gateway', () =>
      getOk(`${info.endpoints.gateway}/relations/listByReferrerId/demo-device-2/10`, memberToken),
    ),
    await measure("raw Query of a device-day's 50 newest readings (dynalite)", () =>
      db.send(
        new QueryCommand({
          TableName: info.tables.readings,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `demo-device-2#${dayOf(Date.now())}` },
          ScanIndexForward: false,
          Limit: 50,
        }),
      ),
    ),
    // Token, session record, device record, access decision (cached), subscription record, then the readings Query.
    await measure('authorized GET /sensor-data/devices/{id}/readings (50 newest) via local gateway', () =>
      getOk(`${info.endpoints.gateway}/sensor-data/devices/demo-device-2/readings?limit=50`, memberToken),
    ),
  ];
  console.log(`\nBenchmarks (${REQUESTS} requests, concurrency ${CONCURRENCY}, ${process.version}, 1 process)\n`);
  console.table(rows.map((r) => ({ measure: r.label, 'ops/s': r.opsPerSecond, 'p50 ms': r.p50, 'p99 ms': r.p99 })));
  const ratio = (ours: number, raw: number) =>
    `${((rows[ours]!.opsPerSecond / rows[raw]!.opsPerSecond) * 100).toFixed(0)} %`;
  console.log(`parameter read via gateway / raw GetItem: ${ratio(1, 0)}`);
  console.log(`object-checked relations list via gateway / raw Query: ${ratio(3, 2)}`);
  console.log(`tier-gated readings page via gateway / raw Query: ${ratio(5, 4)}`);
  await benchIngest(stack, db, await tokenOf('admin@example.com'), memberToken);

  const chart = await benchChart(info, tokenOf);
  console.log(
    `\nOne year of 1-minute readings for one device (${chart.readings.toLocaleString('en')} readings, ${chart.measurements} measurements)\n`,
  );
  console.table([
    { measure: 'seed readings (raw BatchWriteItem)', value: `${chart.seedSeconds.toFixed(1)} s` },
    { measure: 'roll-ups and chart-data objects (worker function)', value: `${chart.rollupSeconds.toFixed(1)} s` },
    { measure: `GET /series, 1 year (median), ${chart.resolution} source`, value: `${chart.seriesMs.toFixed(0)} ms` },
    {
      measure: 'response size (target ≤ 100 KB)',
      value: `${(chart.seriesBytes / 1024).toFixed(1)} KB (${(chart.seriesGzipBytes / 1024).toFixed(1)} KB gzipped), ${chart.seriesPoints} points`,
    },
    {
      measure: 'choose "1 year" → every chart painted in Chromium (target ≤ 500 ms)',
      value: chart.paintMs === undefined ? 'skipped (BENCH_WEB=false)' : `${chart.paintMs.toFixed(0)} ms`,
    },
    {
      measure: 'cold page load → first charts painted (incl. Vite dev server)',
      value: chart.firstPaintMs === undefined ? 'skipped' : `${chart.firstPaintMs.toFixed(0)} ms`,
    },
  ]);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
