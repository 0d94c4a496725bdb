import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get as httpGet, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import { dayOf, readingItems } from '../../functions/_shared/sensor-data/readings-store';
import { environmentSettings } from '../../infra/definitions/environments';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { type RunningStack, startStack } from '../../infra/local/stack';
import { DAY_MS } from '../../shared/sensor-data/tiers';
import { untilQueueEmpty } from '../support/queues';
import { alertPartsNeedStack, benchAlerts, printAlertSilence } from './alerts';
import { benchDevice } from './bench-device';
import { benchBundles } from './bundles';
import { benchCampaign } from './campaign';
import { benchChart } from './chart';
import { benchCost } from './cost';
import { benchLighthouse, formatLighthouseRows } from './lighthouse';
import { benchLoad, printLoad } from './load';
import { benchNotifications } from './notifications';
import { benchOpenData, printOpenData } from './open-data';
import { benchQuality, benchQualityIngest, qualityPartsNeedStack } from './quality';
import { benchRolloutStart, benchRollouts, printRolloutRules } from './rollouts';
import { countCalls, countStoreCalls } from './store-calls';
import { benchWeb, formatWebRows } from './web';
import { printWebhooks } from './webhooks';

/**
 * `npm run bench`: prints figures, asserts nothing. Each figure of our path stands beside the raw-store
 * baseline measured in the same run on the same emulator: authorized reads (a parameter, a relations list, a
 * tier-gated readings page; with the store calls and round trips each request makes), ingest through data-ingress (with
 * its CPU, calls and round trips per batch),
 * and a year of 1-minute data charted (GET /series beside its raw S3 reads; paint time in Chromium).
 * The npm script sets LOG_LEVEL=warn: the logger reads it on import, before this module's body runs.
 * and a banner to 10,000 people through the jobs queue and the notifications worker.
 * A campaign of 50 devices × 30 days of 10-minute data compared on one page (one request beside one per device; paint
 * time in Chromium).
 * Load (issue 19): BENCH_LOAD_PEOPLE simulated people (50) for BENCH_LOAD_SECONDS (60), twice back to back, with a mix
 * of what people do in the app; req/s, p50/p95/p99 and errors per kind, and this process's memory around each run.
 * Bundles (issue 20): every Lambda's minified size beside its budget and the time a fresh Node process takes to import it.
 * Cost (issue 20): what one device reporting a reading a minute costs per month, from the requests counted (./cost.ts).
 * Webhooks (issue 38): a day of a failing receiver, and 1,000 devices a minute to one webhook (./webhooks.ts).
 * Open data (issue 41): a SensorThings page of 1,000 Observations beside our readings route; a year of one-minute data as
 * Parquet beside CSV in bytes; DuckDB's hourly mean over that file (./open-data.ts).
 * Rollouts (issue 40): a healthy and a bad release's staged rollouts on a simulated clock: the abort rule over 10,000
 * seeded fleets of 1,000 devices and 1,000-device fleets through the use cases on in-process stores (before the stack
 * starts), then on the stack: how long starting a rollout of 200 and 1,000 devices takes through the gateway, and a
 * smaller fleet on the stack's stores for how soon a halt stops offers and the cost per device (./rollouts.ts).
 * Alerts (issue 37): silences among 10,000 simulated devices, ingest → banner, ingest with rules ÷ without, flapping
 * (./alerts.ts); what alerting costs per device-month is a column of the cost section.
 * Data quality (issue 39): flags found and false flags on a generated series, and the flags' share of ingest's CPU;
 * ingest with flags ÷ without on the stack (./quality.ts; BENCH_QUALITY_PARTS=flags skips it); in the chart section,
 * the year reprocessed after a calibration and its series with values=both ÷ corrected.
 * BENCH_SECTIONS=bundles,quality,webhooks,reads,ingest,cost,rollouts,chart,campaign,open-data,notifications,alerts,web,load chooses the parts (all by default); BENCH_WEB=false
 * skips the browser.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const credentials = LOCAL_CREDENTIALS;

const measure = async (label: string, op: () => Promise<unknown>) => {
  for (let i = 0; i < 50; i++) await op(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
  return {
    label,
    opsPerSecond: Math.round(latencies.length / seconds),
    // This process's CPU (every thread) per operation: what other work on the machine does not change.
    cpuMs: (used.user + used.system) / 1000 / latencies.length,
    p50: pct(0.5),
    p99: pct(0.99),
  };
};

// ---- Reads (issue 12): each authorized read through the gateway beside the raw store call it ends in -------------

const READ_ROUNDS = Number(process.env.BENCH_READ_ROUNDS ?? 3);

interface ReadPair {
  name: string;
  raw: { label: string; op: () => Promise<unknown> };
  /** The raw store calls the route cannot do without, as few round trips as they allow: the most its ratio could reach. */
  floor: { label: string; op: () => Promise<unknown> };
  ours: { label: string; op: () => Promise<unknown> };
}

type Calls = ReturnType<typeof countCalls>;

/**
 * Alternating rounds, best of each, so a burst of other work on the machine lowers one round rather than one
 * side; then the store calls of one request at a time: the handlers' (`storeCalls`) and the bench's raw ones
 * (`rawCalls`, on its own client).
 */
const benchPair = async (pair: ReadPair, storeCalls: Calls, rawCalls: Calls) => {
  const raws: Awaited<ReturnType<typeof measure>>[] = [];
  const floors: Awaited<ReturnType<typeof measure>>[] = [];
  const ourRuns: Awaited<ReturnType<typeof measure>>[] = [];
  for (let round = 0; round < READ_ROUNDS; round++) {
    raws.push(await measure(pair.raw.label, pair.raw.op));
    floors.push(await measure(pair.floor.label, pair.floor.op));
    ourRuns.push(await measure(pair.ours.label, pair.ours.op));
  }
  const best = (runs: typeof raws) => ({
    ...runs.reduce((a, b) => (b.opsPerSecond > a.opsPerSecond ? b : a)),
    cpuMs: Math.min(...runs.map((r) => r.cpuMs)),
    rounds: runs.map((r) => r.opsPerSecond).join(' / '),
  });
  return {
    name: pair.name,
    raw: { ...best(raws), calls: await rawCalls.perRequest(pair.raw.op, 10) },
    floor: { ...best(floors), calls: await rawCalls.perRequest(pair.floor.op, 10) },
    ours: { ...best(ourRuns), calls: await storeCalls.perRequest(pair.ours.op) },
  };
};

/** One table: each raw call, the raw calls the route cannot do without, and the route; then the ratios. */
const printReads = (results: Awaited<ReturnType<typeof benchPair>>[]) => {
  console.log(
    `\nAuthorized reads beside their raw store call (${REQUESTS} requests, concurrency ${CONCURRENCY}, best of ${READ_ROUNDS} alternating rounds, ${process.version}, 1 process)\n`,
  );
  const row = (
    r: {
      label: string;
      opsPerSecond: number;
      p50: string;
      cpuMs: number;
      calls: { calls: number; roundTrips: number };
    },
    raw?: { opsPerSecond: number; cpuMs: number },
  ) => ({
    measure: r.label,
    'ops/s': r.opsPerSecond,
    'p50 ms': r.p50,
    'CPU ms/request': r.cpuMs.toFixed(2),
    '÷ raw': raw ? (r.opsPerSecond / raw.opsPerSecond).toFixed(2) : '',
    '÷ raw (CPU)': raw ? (raw.cpuMs / r.cpuMs).toFixed(2) : '',
    'store calls/request': r.calls.calls,
    'round trips/request': r.calls.roundTrips,
  });
  console.table(results.flatMap(({ raw, floor, ours }) => [row(raw), row(floor, raw), row(ours, raw)]));
  for (const { name, raw, floor, ours } of results) {
    console.log(
      `${name} via gateway ÷ raw: ${(ours.opsPerSecond / raw.opsPerSecond).toFixed(2)} by ops/s (rounds ${ours.rounds} vs ${raw.rounds}), ${(raw.cpuMs / ours.cpuMs).toFixed(2)} by CPU per request; store calls per request ${ours.calls.calls}, sequential round trips ${ours.calls.roundTrips}`,
    );
    console.log(
      `  its raw store calls alone (${floor.label}) ÷ raw: ${(floor.opsPerSecond / raw.opsPerSecond).toFixed(2)} by ops/s, ${(raw.cpuMs / floor.cpuMs).toFixed(2)} by CPU, ${floor.calls.calls} calls in ${floor.calls.roundTrips} round trips: the most the route could reach with an HTTP hop that cost nothing`,
    );
  }
};

// ---- Ingest (issue 6): readings/s through POST /data-ingress/readings beside raw BatchWriteItem ----------------

const INGEST_BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 40);
const INGEST_BATCH_SIZE = 500;
const INGEST_CONCURRENCY = Number(process.env.BENCH_INGEST_CONCURRENCY ?? 4);
const INGEST_ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);

/**
 * The same number of readings (batches of 500, a few at a time) once as raw BatchWriteItem calls of the items the
 * readings store makes of them (a batch and hour an item, decision 044; no merge condition) and once through
 * the gateway: credential check, per-reading validation, the device-record update, the stats count, the write,
 * the roll-up message and the live-watch lookup.
 */
const benchIngest = async (
  { info, pauseWorkers, resumeWorkers }: RunningStack,
  db: DynamoDBDocumentClient,
  adminToken: string,
  ownerToken: string,
  { agent, storeCalls, rawCalls }: { agent: Agent; storeCalls: Calls; rawCalls: Calls },
) => {
  const device = await benchDevice(
    { info },
    { adminToken, ownerToken, serial: `BENCH${Date.now().toString(36).toUpperCase()}` },
  );
  const { credential } = device;

  // Distinct timestamps per run and batch (one reading a second, 5 days back), so every write is a new item.
  const start = Date.now() - 5 * 24 * 3_600_000;
  const batchAt = (run: number, batch: number) =>
    Array.from({ length: INGEST_BATCH_SIZE }, (_, i) => {
      const timestamp = start + ((run * INGEST_BATCHES + batch) * INGEST_BATCH_SIZE + i) * 1_000;
      return { timestamp, values: { pm2_5: (i % 50) + 0.5, co2: 400 + (i % 300), temperature: 21.5 } };
    });

  const run = async (label: string, send: (batch: number) => Promise<void>) => {
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: INGEST_CONCURRENCY }, async () => {
        for (let batch = next++; batch < INGEST_BATCHES; batch = next++) await send(batch);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      label,
      readingsPerSecond: Math.round((INGEST_BATCHES * INGEST_BATCH_SIZE) / seconds),
      // This process's CPU (every thread) per batch, as the reads print it: what other work on the machine changes little.
      cpuMsPerBatch: (used.user + used.system) / 1000 / INGEST_BATCHES,
    };
  };

  const rawDevice = `${device.id}-raw`;
  const rawWrite = (readings: ReturnType<typeof batchAt>) =>
    batchWriteAll(
      db,
      info.tables.readings!,
      readingItems(rawDevice, readings, Date.now()).map((Item) => ({ PutRequest: { Item } })),
      { concurrency: 8 },
    );
  const rawRun = (round: number) =>
    run('raw BatchWriteItem into readings (dynalite)', (batch) => rawWrite(batchAt(2 * round, batch)));
  // Through node:http with keep-alive, as the reads call the gateway and the SDK calls dynalite.
  const send = (readings: ReturnType<typeof batchAt>) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ readings });
      httpRequest(
        `${info.endpoints.gateway}/data-ingress/readings`,
        {
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            response.statusCode === 200
              ? resolve()
              : reject(new Error(`Ingest answered ${response.statusCode}: ${Buffer.concat(chunks).toString()}`)),
          );
          response.on('error', reject);
        },
      )
        .on('error', reject)
        .end(body);
    });
  const oursRun = (round: number) =>
    run('POST /data-ingress/readings via local gateway', (batch) => send(batchAt(2 * round + 1, batch)));
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
  // Then batches one at a time, past the rounds' timestamps, for the calls each side makes.
  let extra = 0;
  const calls = {
    raw: await rawCalls.perRequest(() => rawWrite(batchAt(2 * INGEST_ROUNDS, extra++)), 5),
    ours: await storeCalls.perRequest(() => send(batchAt(2 * INGEST_ROUNDS + 1, extra++)), 10),
  };
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
  const cpuOf = (runs: typeof raws) => Math.min(...runs.map((r) => r.cpuMsPerBatch));
  console.table(
    [raw, ours].map((r, i) => ({
      measure: r.label,
      'readings/s': r.readingsPerSecond,
      rounds: (i === 0 ? raws : ourRuns).map((x) => x.readingsPerSecond).join(' / '),
      'CPU ms/batch': cpuOf(i === 0 ? raws : ourRuns).toFixed(1),
      'calls/batch': (i === 0 ? calls.raw : calls.ours).calls,
      'round trips/batch': (i === 0 ? calls.raw : calls.ours).roundTrips,
    })),
  );
  console.log(
    `ingest via gateway / raw BatchWriteItem: ${((ours.readingsPerSecond / raw.readingsPerSecond) * 100).toFixed(0)} % by readings/s, ${((cpuOf(raws) / cpuOf(ourRuns)) * 100).toFixed(0)} % by CPU per batch; store and queue calls per batch ${calls.ours.calls}, sequential round trips ${calls.ours.roundTrips}`,
  );
  const ingested = INGEST_ROUNDS * INGEST_BATCHES * INGEST_BATCH_SIZE;
  console.log(
    `then the roll-up worker alone: ${INGEST_ROUNDS * INGEST_BATCHES} messages (${ingested.toLocaleString('en')} readings) in ${rollupSeconds.toFixed(1)} s = ${Math.round(ingested / rollupSeconds)} readings/s`,
  );
};

// -----------------------------------------------------------------------------------------------------------------

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-bench-'));
// The web app's production build, as users get it, for the browser parts (chart paint, web); BENCH_WEB=false skips it.
const withWeb = process.env.BENCH_WEB !== 'false';
// BENCH_SECTIONS=reads (or bundles, quality, webhooks, ingest, cost, rollouts, chart, campaign, open-data, notifications, alerts,
// web, load; comma-separated) runs only those.
const sections = new Set(
  (
    process.env.BENCH_SECTIONS ??
    'bundles,quality,webhooks,reads,ingest,cost,rollouts,chart,campaign,open-data,notifications,alerts,web,load'
  ).split(','),
);
// First, and without the local stack: each Lambda's bundle and cold import, on a machine not yet busy with the stack;
// the data-quality checks' figures, in process.
if (sections.has('bundles')) await benchBundles(rootDir);
if (sections.has('quality')) benchQuality();
// Webhook delivery on a clock the bench sets, with a real receiver and no stack (test/bench/webhooks.ts).
if (sections.has('webhooks')) await printWebhooks();
// The alerts' silence simulation on a simulated clock, in process (test/bench/alerts.ts); its other parts need the stack.
if (sections.has('alerts')) await printAlertSilence();
// Rollouts' abort rule and 1,000-device fleets through the use cases on in-process stores; the stack part comes later.
if (sections.has('rollouts')) await printRolloutRules();
const stackless = (section: string) =>
  section === 'bundles' ||
  (section === 'quality' && !qualityPartsNeedStack()) ||
  section === 'webhooks' ||
  (section === 'alerts' && !alertPartsNeedStack());
if ([...sections].every(stackless)) {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
// The gateway is called through node:http with keep-alive, as the SDK reaches dynalite for the raw calls: fetch
// (undici) would add about 0.15 ms of client CPU to every gateway request in this one process.
const agent = new Agent({ keepAlive: true });
const stack = await startStack({ rootDir, dataDir, ports: EPHEMERAL_PORTS, web: withWeb ? 'prod' : false });
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
  const getOk = (target: string, bearer: string) =>
    new Promise<void>((resolve, reject) => {
      httpGet(target, { agent, headers: { authorization: `Bearer ${bearer}` } }, (response) => {
        response.resume();
        if (response.statusCode !== 200) reject(new Error(`Unexpected ${response.statusCode} from ${target}`));
        response.on('end', resolve).on('error', reject);
      }).on('error', reject);
    });
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: info.region, endpoint: info.endpoints.dynamodb, credentials }),
  );
  const gateway = info.endpoints.gateway;
  const storeCalls = countStoreCalls();
  const rawCalls = countCalls([db]);
  // A full day's page, the same at any time of day: yesterday noon (UTC) and the 50 readings before it.
  const pageTo = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS / 2;

  const readingsQuery = () =>
    db.send(
      new QueryCommand({
        TableName: info.tables.readings,
        KeyConditionExpression: 'pk = :pk AND ts <= :to',
        ExpressionAttributeValues: { ':pk': `demo-device-2#${dayOf(pageTo)}`, ':to': pageTo },
        ScanIndexForward: false,
        Limit: 50,
      }),
    );
  const subOf = (jwt: string) =>
    (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
  const [staffSub, memberSub] = [subOf(token), subOf(memberToken)];
  const sessionGet = (userId: string) =>
    db.send(new GetCommand({ TableName: info.tables.accessVersions, Key: { userId }, ConsistentRead: true }));
  const parameterGet = () =>
    db.send(new GetCommand({ TableName: info.tables.parameters, Key: { id: 'maintenance-mode' } }));
  const relationsQuery = () =>
    db.send(
      new QueryCommand({
        TableName: info.tables.relations,
        IndexName: 'byReferrer',
        KeyConditionExpression: 'referrerId = :id',
        ExpressionAttributeValues: { ':id': 'demo-device-2' },
        Limit: 10,
      }),
    );

  const pairs: ReadPair[] = [
    {
      name: 'parameter read',
      raw: { label: 'raw GetItem (dynalite)', op: parameterGet },
      // The session record and the parameter in one BatchGetItem, as the route reads them.
      floor: {
        label: 'raw BatchGetItem of the session record and that item (consistent)',
        op: () =>
          db.send(
            new BatchGetCommand({
              RequestItems: {
                [info.tables.accessVersions!]: { Keys: [{ userId: staffSub }], ConsistentRead: true },
                [info.tables.parameters!]: { Keys: [{ id: 'maintenance-mode' }], ConsistentRead: true },
              },
            }),
          ),
      },
      ours: {
        label: 'authorized GET /system/parameters/{id} via local gateway',
        op: () => getOk(`${gateway}/system/parameters/maintenance-mode`, token),
      },
    },
    {
      name: 'object-checked relations list',
      raw: { label: 'raw Query byReferrer index (dynalite)', op: relationsQuery },
      // The access decision is cached per instance, valid at the version the session record carries.
      floor: {
        label: 'raw GetItem of the session record (consistent), then that Query',
        op: async () => {
          await sessionGet(memberSub);
          await relationsQuery();
        },
      },
      ours: {
        label: 'GET /relations/listByReferrerId/{device}/10 via local gateway',
        op: () => getOk(`${gateway}/relations/listByReferrerId/demo-device-2/10`, memberToken),
      },
    },
    {
      name: 'tier-gated readings page',
      raw: { label: "raw Query of a device-day's 50 readings (dynalite)", op: readingsQuery },
      // What the guarantees need on every request: the session, device and subscription records, read consistently,
      // beside the Query, as the route reads them.
      floor: {
        label: 'raw BatchGetItem of session, device and subscription (consistent), beside that Query',
        op: () =>
          Promise.all([
            db.send(
              new BatchGetCommand({
                RequestItems: {
                  [info.tables.accessVersions!]: { Keys: [{ userId: memberSub }], ConsistentRead: true },
                  [info.tables.devices!]: { Keys: [{ id: 'demo-device-2' }], ConsistentRead: true },
                  [info.tables.deviceSubscriptions!]: { Keys: [{ deviceId: 'demo-device-2' }], ConsistentRead: true },
                },
              }),
            ),
            readingsQuery(),
          ]),
      },
      ours: {
        label: 'GET /sensor-data/devices/{id}/readings (50) via local gateway',
        op: () => getOk(`${gateway}/sensor-data/devices/demo-device-2/readings?limit=50&to=${pageTo}`, memberToken),
      },
    },
  ];
  const results: Awaited<ReturnType<typeof benchPair>>[] = [];
  if (sections.has('reads')) {
    // The demo data's roll-ups are worked after a start: on this one thread they would slow whichever side ran then.
    await untilQueueEmpty(
      new SQSClient({ region: info.region, endpoint: info.endpoints.sqs, credentials }),
      info.queues.sensorData!,
    );
    await stack.pauseWorkers();
    for (const pair of pairs) results.push(await benchPair(pair, storeCalls, rawCalls));
    stack.resumeWorkers();
    printReads(results);
  }
  if (sections.has('ingest')) {
    await benchIngest(stack, db, await tokenOf('admin@example.com'), memberToken, { agent, storeCalls, rawCalls });
  }
  if (sections.has('cost')) {
    await benchCost(
      stack,
      await tokenOf('admin@example.com'),
      memberToken,
      environmentSettings('prod').apiThrottling.rateLimit,
    );
  }

  if (sections.has('rollouts')) {
    await benchRolloutStart(stack, db, await tokenOf('admin@example.com'));
    await benchRollouts(stack, db);
  }

  if (sections.has('chart')) {
    const chart = await benchChart(info, tokenOf, storeCalls);
    console.log(
      `\nOne year of 1-minute readings for one device (${chart.readings.toLocaleString('en')} readings, ${chart.measurements} measurements)\n`,
    );
    console.table([
      { measure: 'seed readings (raw BatchWriteItem)', value: `${chart.seedSeconds.toFixed(1)} s` },
      { measure: 'roll-ups and chart-data objects (worker function)', value: `${chart.rollupSeconds.toFixed(1)} s` },
      { measure: `GET /series, 1 year (median), ${chart.resolution} source`, value: `${chart.seriesMs.toFixed(0)} ms` },
      {
        measure: `raw: the ${chart.rawObjects} chart-data objects it reads, from S3 side by side (median)`,
        value: `${chart.rawMs.toFixed(0)} ms, ${(chart.rawBytes / 1024).toFixed(1)} KB`,
      },
      { measure: 'GET /series ÷ raw reads (time)', value: (chart.rawMs / chart.seriesMs).toFixed(2) },
      {
        measure: 'store calls per GET /series (sequential round trips)',
        value: chart.seriesCalls ? `${chart.seriesCalls.calls} (${chart.seriesCalls.roundTrips})` : '',
      },
      {
        measure: 'response size (target ≤ 100 KB)',
        value: `${(chart.seriesBytes / 1024).toFixed(1)} KB (${(chart.seriesGzipBytes / 1024).toFixed(1)} KB gzipped), ${chart.seriesPoints} points`,
      },
      {
        measure: 'choose "1 year" → every chart painted in Chromium (target ≤ 500 ms)',
        value: chart.paintMs === undefined ? 'skipped (BENCH_WEB=false)' : `${chart.paintMs.toFixed(0)} ms`,
      },
      {
        measure: 'cold page load → first charts painted (production build)',
        value: chart.firstPaintMs === undefined ? 'skipped' : `${chart.firstPaintMs.toFixed(0)} ms`,
      },
      {
        measure: 'quality: the year reprocessed after a calibration, POST → idle (goal ≤ 5 min)',
        value: `${chart.reprocessSeconds.toFixed(1)} s`,
      },
      {
        measure: 'quality: GET /series values=both ÷ corrected, by requests/s (goal ≥ 0.8)',
        value: `${(chart.seriesCorrectedMs / chart.seriesBothMs).toFixed(2)} (${chart.seriesBothMs.toFixed(0)} ms / ${chart.seriesCorrectedMs.toFixed(0)} ms)`,
      },
    ]);
  }

  if (sections.has('campaign')) {
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const c = await benchCampaign(info, tokenOf, storeCalls);
    console.log(
      `\nA campaign compared: ${c.devices} devices × ${c.days} days of 10-minute readings (${c.readings.toLocaleString('en')} readings, ${c.measurements} measurements), charts ${c.width} px wide\n`,
    );
    console.table([
      { measure: 'seed readings (raw BatchWriteItem)', value: `${c.seedSeconds.toFixed(1)} s` },
      { measure: 'roll-ups and chart-data objects (worker function)', value: `${c.rollupSeconds.toFixed(1)} s` },
      {
        measure: 'open the campaign page in the app → every chart painted in Chromium (goal ≤ 1 s)',
        value: c.openMs === undefined ? 'skipped (BENCH_WEB=false)' : `${c.openMs} ms`,
      },
      {
        measure: '  of which: opened → request sent; request sent → painted; response received → painted',
        value:
          c.requestToPaintMs === undefined
            ? ''
            : `${c.clickToRequestMs} ms; ${c.requestToPaintMs} ms; ${c.responseToPaintMs} ms`,
      },
      {
        measure: 'load the campaign page by its address (the app starts) → every chart painted',
        value: c.loadMs === undefined ? '' : `${c.loadMs} ms`,
      },
      {
        measure: `one request: GET /campaigns/{id}/series (median), ${c.resolution} source, ${c.points} points`,
        value: `${c.oneMs} ms`,
      },
      { measure: '  payload (raw, gzipped)', value: `${kb(c.oneBytes)}, ${kb(c.oneGzipBytes)}` },
      {
        measure: `  raw: the ${c.rawObjects} chart-data objects it reads, from S3 side by side (median)`,
        value: `${c.rawMs} ms, ${kb(c.rawBytes)}`,
      },
      {
        measure: '  store calls (sequential round trips), decisions cached',
        value: c.oneCalls ? `${c.oneCalls.calls} (${c.oneCalls.roundTrips})` : '',
      },
      {
        measure: `instead, ${c.devices} × GET /devices/{id}/series, 6 at a time (median)`,
        value: `${c.perDeviceMs} ms`,
      },
      { measure: '  payload (raw, gzipped each)', value: `${kb(c.perDeviceBytes)}, ${kb(c.perDeviceGzipBytes)}` },
    ]);
  }

  if (sections.has('open-data')) {
    printOpenData(
      await benchOpenData(stack, {
        adminToken: await tokenOf('admin@example.com'),
        ownerToken: memberToken,
        storeCalls,
      }),
    );
  }

  if (sections.has('notifications')) {
    const sent = await benchNotifications(info, db, await tokenOf('admin@example.com'));
    console.log(
      '\nA banner to many people through the jobs queue and the notifications worker (goal: all, under 10 s)\n',
    );
    console.table([
      { measure: 'seed people and their relations (raw BatchWriteItem)', value: `${sent.seedSeconds.toFixed(1)} s` },
      {
        measure: `POST /jobsQueue → status ${sent.status}`,
        value: `${sent.seconds.toFixed(1)} s for ${sent.recipients.toLocaleString('en')} recipients`,
      },
      { measure: 'banners that arrived (counted on the deliveries table)', value: sent.arrived.toLocaleString('en') },
    ]);
  }

  if (sections.has('quality') && qualityPartsNeedStack()) {
    await benchQualityIngest(stack, { adminToken: await tokenOf('admin@example.com'), ownerToken: memberToken });
  }

  if (sections.has('alerts') && alertPartsNeedStack()) {
    await benchAlerts(stack, {
      adminToken: await tokenOf('admin@example.com'),
      ownerToken: memberToken,
      ownerId: memberSub,
    });
  }

  if (sections.has('web') && withWeb) {
    // Each budgeted page opened cold in Chromium on Lighthouse's phone profile (test/bench/web.ts, decision 014).
    console.log('\nThe web app, production build: JS per page, LCP and time to interactive against their budgets\n');
    console.log(formatWebRows(await benchWeb(info)));
    // Lighthouse's own score of the four first pages, mobile and desktop (issue 36; test/bench/lighthouse.ts).
    console.log('\nLighthouse performance (median of BENCH_LIGHTHOUSE_RUNS, default 3), production build\n');
    console.log(formatLighthouseRows(await benchLighthouse(info)));
  }

  // Last: its people, devices and exports would otherwise sit in the store the other parts measure.
  if (sections.has('load')) {
    printLoad(
      await benchLoad(stack, {
        people: Number(process.env.BENCH_LOAD_PEOPLE ?? 50),
        seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60),
        thinkMs: Number(process.env.BENCH_LOAD_THINK_MS ?? 0),
        snapshotDir: process.env.BENCH_LOAD_SNAPSHOTS,
      }),
    );
  }
} finally {
  agent.destroy();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
