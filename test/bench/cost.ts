import { SQSClient } from '@aws-sdk/client-sqs';
import { getDocumentClient, getS3Client, getSqsClient } from '../../functions/_shared/clients';
import { readEnv } from '../../functions/_shared/env';
import { ALERTS_ENV, createSweepDeps } from '../../functions/alerts/deps';
import { createIngestDeps, readDataIngressEnv } from '../../functions/data-ingress/deps';
import { QUEUES } from '../../infra/definitions/storage';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { type SqsHandler, startSqsPoller } from '../../infra/local/sqs-poller';
import type { RunningStack } from '../../infra/local/stack';
import { WORKER_BATCH_SIZE } from '../../infra/stacks/area-stack';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { untilQueueEmpty } from '../support/queues';
import { AWS_LIMITS, AWS_PRICES } from './aws-prices';
import { benchDevice } from './bench-device';

/**
 * Cost per device (issue 20): what one device reporting one reading a minute costs per month, from the operations the
 * code really performs. One simulated hour of a device's batches goes through the ingest use case (built as its
 * Lambdas build it, with the hour's clock) and the real roll-up worker, and every store and queue request is counted
 * on the shared SDK clients (DynamoDB capacity as dynalite computes it, asked for on every call); the counts per hour
 * times 720 are priced from `aws-prices.ts`. Measured three times: a batch every minute rolled up after each (the
 * local stack), and a batch every minute and every 10 minutes rolled up hourly (the cloud, decision 042).
 */

const HOURS_PER_MONTH = 720;
const MINUTE = 60_000;
/** Lambda's memory for both functions (infra/services/service-function.ts: 1024 MB unless a function sets less). */
const LAMBDA_GB = 1;
/**
 * Lambda's own START, END and REPORT lines per invocation (with active tracing, REPORT names the trace): about 400
 * bytes; the worker adds our "Queue message done" line at the default level INFO, about 600 bytes. Estimated from
 * the lines' formats, not counted here (the bench runs at LOG_LEVEL=warn).
 */
const LOG_BYTES = { platform: 400, workerMessageLine: 600 } as const;
/** X-Ray's default sampling: the first request each second, then 5 % (per account and service). */
const XRAY_RESERVOIR_PER_SECOND = 1;
const XRAY_RATE = 0.05;
const FLEET = 100_000;
/**
 * The HTTPS route reads the device's credential record on every request (one consistent GetItem of a small item,
 * docs/sensor-data.md); MQTT devices are authorized once per connection. The bench calls the ingest use case itself,
 * so this read is added for the HTTPS columns.
 */
const HTTPS_CREDENTIAL_READ_UNITS = 1;

interface Tally {
  writeUnits: number;
  readUnits: number;
  dynamodbCalls: number;
  s3Puts: number;
  s3Gets: number;
  sqsRequests: number;
  /** Bytes of the readings table's items written (its storage growth, before DynamoDB's 100 bytes per item). */
  readingBytes: number;
  readingItems: number;
  /** DynamoDB calls and capacity units by command and table: which writes the money goes to. */
  byCommand: Record<string, { calls: number; units: number }>;
}

const emptyTally = (): Tally => ({
  writeUnits: 0,
  readUnits: 0,
  dynamodbCalls: 0,
  s3Puts: 0,
  s3Gets: 0,
  sqsRequests: 0,
  readingBytes: 0,
  readingItems: 0,
  byCommand: {},
});

const WRITES = /Put|Update|Delete|BatchWrite|TransactWrite/;

type ConsumedCapacity = { CapacityUnits?: number };

/**
 * Counts on the clients the handlers share (the local gateway and workers run them in this process); the bench's own
 * clients and the local pollers' are not counted. Every DynamoDB call asks for its consumed capacity.
 */
const countAwsRequests = (readingsTable: string) => {
  let tally = emptyTally();
  let on = false;
  getDocumentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (!on) return next(args);
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
      const consumed = [output.ConsumedCapacity ?? []].flat();
      const units = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (WRITES.test(context.commandName ?? '')) tally.writeUnits += units;
      else tally.readUnits += units;
      tally.dynamodbCalls += 1;
      const tables = consumed.map((c) => (c as { TableName?: string }).TableName ?? '?').join('+');
      const key = `${(context.commandName ?? '?').replace(/Command$/, '')} ${tables}`;
      const entry = tally.byCommand[key] ?? { calls: 0, units: 0 };
      tally.byCommand[key] = { calls: entry.calls + 1, units: entry.units + units };
      // The readings table grows by the items ingest puts (a merge rewrites one: counted again, an upper bound).
      const puts = [
        ...(
          (input.RequestItems as Record<string, { PutRequest?: { Item: unknown } }[]> | undefined)?.[readingsTable] ??
          []
        ).map((request) => request.PutRequest?.Item),
        ...(context.commandName === 'PutItemCommand' && input.TableName === readingsTable ? [input.Item] : []),
      ];
      for (const item of puts) {
        tally.readingItems += 1;
        tally.readingBytes += JSON.stringify(item ?? {}).length;
      }
      return result;
    },
    { step: 'initialize', name: 'benchCostCounter' },
  );
  getS3Client().middlewareStack.add(
    (next, context) => async (args) => {
      if (on) {
        if (/^(Put|Copy|Post|List|CreateMultipart|UploadPart|CompleteMultipart)/.test(context.commandName ?? '')) {
          tally.s3Puts += 1;
        } else tally.s3Gets += 1;
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchCostCounter' },
  );
  getSqsClient().middlewareStack.add(
    (next) => async (args) => {
      if (on) tally.sqsRequests += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCostCounter' },
  );
  return {
    during: async (work: () => Promise<void>): Promise<Tally> => {
      tally = emptyTally();
      on = true;
      try {
        await work();
      } finally {
        on = false;
      }
      return tally;
    },
  };
};

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface HourMeasured {
  label: string;
  batchesPerHour: number;
  /** The hour's roll-ups coalesced (ROLLUP_COALESCING=hour, as the cloud environments run). */
  coalesced: boolean;
  tally: Tally;
  ingestMs: number;
  workerMs: number;
  workerInvocations: number;
  rollupMessages: number;
  /** The alerts sweep's time over the hour on this device's looks (ms; 0 without alerts). */
  sweepMs: number;
}

const COLUMN = 26;

const money = (value: number) => (value >= 0.01 ? `$${value.toFixed(3)}` : `$${value.toFixed(5)}`);

const priceMonth = (m: HourMeasured, path: 'https' | 'mqtt', devices: number) => {
  const P = AWS_PRICES;
  const perMonth = (perHour: number) => perHour * HOURS_PER_MONTH;
  const batches = perMonth(m.batchesPerHour);
  // Coalesced, the hour's first message is received once early and put back (ChangeMessageVisibility) until it is due:
  // an invocation of a few milliseconds and two requests an hour, beside what was counted.
  const deferral = m.coalesced ? { invocations: 1, sqsRequests: 2 } : { invocations: 0, sqsRequests: 0 };
  const invocations = { ingest: batches, worker: perMonth(m.workerInvocations + deferral.invocations) };
  // The sweep is one invocation a minute for the whole fleet: a device's share is the time its looks take.
  const gbSeconds =
    (invocations.ingest * Math.ceil(m.ingestMs) + invocations.worker * Math.ceil(m.workerMs) + perMonth(m.sweepMs)) *
    (LAMBDA_GB / 1000);
  // Lambda's SQS event source receives and deletes each message: two requests beside the send counted here.
  const sqsRequests = perMonth(m.tally.sqsRequests + 2 * m.rollupMessages + deferral.sqsRequests);
  const logBytes =
    (invocations.ingest + invocations.worker) * LOG_BYTES.platform + invocations.worker * LOG_BYTES.workerMessageLine;
  // Sampled traces of the whole fleet, shared out per device: a lone device's every request starts a second.
  const fleetPerSecond = (devices * batches) / (HOURS_PER_MONTH * 3600);
  const tracedShare =
    fleetPerSecond <= XRAY_RESERVOIR_PER_SECOND
      ? 1
      : (XRAY_RESERVOIR_PER_SECOND + XRAY_RATE * (fleetPerSecond - XRAY_RESERVOIR_PER_SECOND)) / fleetPerSecond;
  const rows: [string, number][] = [
    path === 'https'
      ? ['API Gateway (REST requests)', (batches / 1e6) * P.apiGateway.perMillionRestRequests]
      : // Devices publish their readings to the readings rule's Basic Ingest topic (decision 043): no messaging charge.
        [
          'IoT Core (Basic Ingest: rule, action, connection)',
          (batches / 1e6) * (P.iotCore.perMillionRulesTriggered + P.iotCore.perMillionActionsExecuted) +
            ((HOURS_PER_MONTH * 60) / 1e6) * P.iotCore.perMillionConnectionMinutes,
        ],
    ['Lambda requests', ((invocations.ingest + invocations.worker) / 1e6) * P.lambda.perMillionRequests],
    ['Lambda GB-seconds (Arm, 1 GB)', gbSeconds * P.lambda.perGbSecondArm],
    ['DynamoDB writes (WRU)', (perMonth(m.tally.writeUnits) / 1e6) * P.dynamodb.perMillionWriteRequestUnits],
    [
      'DynamoDB reads (RRU)',
      ((perMonth(m.tally.readUnits) + (path === 'https' ? batches * HTTPS_CREDENTIAL_READ_UNITS : 0)) / 1e6) *
        P.dynamodb.perMillionReadRequestUnits,
    ],
    [
      'DynamoDB storage added per month',
      ((perMonth(m.tally.readingBytes) + perMonth(m.tally.readingItems) * 100) / 1024 ** 3) * P.dynamodb.perGbMonth,
    ],
    [
      'S3 requests (chart-data objects)',
      (perMonth(m.tally.s3Puts) / 1000) * P.s3.perThousandPuts +
        (perMonth(m.tally.s3Gets) / 1000) * P.s3.perThousandGets,
    ],
    ['SQS requests (FIFO)', (sqsRequests / 1e6) * P.sqs.perMillionFifoRequests],
    ['CloudWatch Logs ingestion (estimated)', (logBytes / 1024 ** 3) * P.cloudWatchLogs.perGbIngested],
    ['X-Ray traces (default sampling)', ((batches * tracedShare) / 1e6) * P.xray.perMillionTracesRecorded],
  ];
  return { rows, total: rows.reduce((sum, [, value]) => sum + value, 0) };
};

const printCost = (measured: readonly HourMeasured[], goal: number) => {
  console.log(
    `\nCost per device-month at one reading a minute (${AWS_PRICES.region} prices as of ${AWS_PRICES.asOf}, ` +
      'test/bench/aws-prices.ts; counted over one simulated hour × 720)\n',
  );
  for (const m of measured) {
    const t = m.tally;
    console.log(
      `  ${m.label}: per hour ${m.batchesPerHour} ingest calls (median ${m.ingestMs.toFixed(1)} ms), ` +
        `${m.workerInvocations} roll-up invocations (median ${m.workerMs.toFixed(1)} ms), ` +
        `${t.dynamodbCalls} DynamoDB calls (${t.writeUnits} WRU, ${t.readUnits} RRU), ${t.s3Puts} S3 PUTs, ` +
        `${t.s3Gets} S3 GETs, ${t.sqsRequests} SQS sends`,
    );
  }
  const perBatch = measured[0]!;
  console.log(`\n  DynamoDB per batch, ${perBatch.label} (calls, capacity units; ingest and its roll-up):`);
  for (const [key, { calls, units }] of Object.entries(perBatch.tally.byCommand).sort(
    ([, a], [, b]) => b.units - a.units,
  )) {
    console.log(
      `    ${key.padEnd(48)}${(calls / perBatch.batchesPerHour).toFixed(2).padStart(7)}${(units / perBatch.batchesPerHour).toFixed(2).padStart(8)}`,
    );
  }
  const columnsFor = (devices: number) =>
    measured.flatMap((m) =>
      (['https', 'mqtt'] as const).map((path) => ({
        head: `${m.batchesPerHour === 60 ? '1/min' : `${60 / m.batchesPerHour}-min`}${m.coalesced ? ' hourly' : ''}${m.sweepMs ? ' +alerts' : ''} ${path.toUpperCase()}`,
        ...priceMonth(m, path, devices),
      })),
    );
  for (const devices of [1, FLEET]) {
    console.log(`\n  ${devices === 1 ? 'One device' : `${FLEET.toLocaleString('en')} devices, per device`}:`);
    const columns = columnsFor(devices);
    // The paths' first rows differ (API Gateway, IoT Core): every label of any column, each cell by its label.
    const labels = [...new Set(columns.flatMap((c) => c.rows.map(([label]) => label)))];
    const width = Math.max(...labels.map((l) => l.length), 'total'.length) + 2;
    console.log(`    ${''.padEnd(width)}${columns.map((c) => c.head.padStart(COLUMN)).join('')}`);
    for (const label of labels) {
      const cells = columns.map((c) => {
        const row = c.rows.find(([rowLabel]) => rowLabel === label);
        return (row ? money(row[1]) : '').padStart(COLUMN);
      });
      console.log(`    ${label.padEnd(width)}${cells.join('')}`);
    }
    console.log(
      `    ${'total'.padEnd(width)}${columns.map((c) => `${money(c.total)}${c.total <= goal ? ' ✓' : ' ✗'}`.padStart(COLUMN)).join('')}`,
    );
  }
  console.log(`\n  Goal: ≤ ${money(goal)} per device-month (✓ met, ✗ not).`);
  const first = measured.find((m) => m.coalesced && m.batchesPerHour === 60) ?? measured[0]!;
  const { rows, total } = priceMonth(first, 'mqtt', FLEET);
  console.log(`\n  Where the money goes (${FLEET.toLocaleString('en')} devices over MQTT, ${first.label}):`);
  for (const [label, value] of [...rows].sort(([, a], [, b]) => b - a).slice(0, 6)) {
    console.log(`    ${`${Math.round((value / total) * 100)} %`.padStart(5)}  ${label} ${money(value)}`);
  }
  const brokerMessaging = ((first.batchesPerHour * HOURS_PER_MONTH) / 1e6) * AWS_PRICES.iotCore.perMillionMessages;
  console.log(
    `  Through the broker (\`devices/{id}/readings\`) instead of Basic Ingest, IoT adds ${money(brokerMessaging)} of messaging.`,
  );
  const meetingGoal = columnsFor(FLEET)
    .filter((c) => c.total <= goal)
    .map((c) => c.head);
  console.log(
    meetingGoal.length
      ? `  Under the goal for ${FLEET.toLocaleString('en')} devices: ${meetingGoal.join(', ')} (readings stored a batch to an item: docs/decisions/044-readings-by-the-batch.md).`
      : '  No path is under the goal.',
  );
  console.log('  Why a batch a minute stays above it: docs/decisions/043-basic-ingest.md (after 042 and 033).');
};

const printFleetLimits = (m: HourMeasured, prodRate: number) => {
  const perSecond = (FLEET * m.batchesPerHour) / 3600;
  const concurrency =
    perSecond * ((Math.ceil(m.ingestMs) + (m.workerInvocations / m.batchesPerHour) * Math.ceil(m.workerMs)) / 1000);
  const writeUnitsPerSecond = (FLEET * m.tally.writeUnits) / 3600;
  // Each figure beside the limit it meets (a number, so "over" is a comparison) and how that limit is named.
  const rows: { what: string; value: number; digits?: number; limit: number; named: string }[] = [
    {
      what: 'ingest requests per second',
      value: perSecond,
      limit: prodRate,
      named: `prod stage throttle ${prodRate}/s (infra/definitions/environments.ts); account ${AWS_LIMITS.apiGatewayAccount.value}/s`,
    },
    {
      what: 'Lambda concurrency (ingest + roll-up)',
      value: concurrency,
      limit: AWS_LIMITS.lambdaConcurrency.value,
      named: `${AWS_LIMITS.lambdaConcurrency.value} (${AWS_LIMITS.lambdaConcurrency.source})`,
    },
    {
      what: 'DynamoDB write units per second, all tables',
      value: writeUnitsPerSecond,
      limit: AWS_LIMITS.dynamodbTableWrites.value,
      named: `${AWS_LIMITS.dynamodbTableWrites.value} per table`,
    },
    {
      what: 'writes per second on one partition key',
      value: m.batchesPerHour / 3600,
      digits: 3,
      limit: AWS_LIMITS.dynamodbPartitionWrites.value,
      named: `${AWS_LIMITS.dynamodbPartitionWrites.value} (keys are per device and day: readings, roll-ups, ingest stats)`,
    },
    {
      what: 'MQTT publishes per second',
      value: perSecond,
      limit: AWS_LIMITS.iotPublishPerSecond.value,
      named: `${AWS_LIMITS.iotPublishPerSecond.value} (${AWS_LIMITS.iotPublishPerSecond.source})`,
    },
    {
      // Every batch is one evaluation of the readings rule, through Basic Ingest or the broker (decision 043).
      what: 'readings rule evaluations per second',
      value: perSecond,
      limit: AWS_LIMITS.iotRuleEvaluations.value,
      named: `${AWS_LIMITS.iotRuleEvaluations.value} (${AWS_LIMITS.iotRuleEvaluations.source})`,
    },
    {
      what: 'MQTT connections',
      value: FLEET,
      limit: AWS_LIMITS.iotConnections.value,
      named: `${AWS_LIMITS.iotConnections.value.toLocaleString('en')} per account`,
    },
  ];
  console.log(`\n  ${FLEET.toLocaleString('en')} devices, ${m.label}: what they meet`);
  for (const { what, value, digits = 0, limit, named } of rows) {
    const shown = value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    console.log(`    ${what.padEnd(46)}${shown.padStart(10)}   limit ${named}${value > limit ? '   ← over' : ''}`);
  }
};

export const benchCost = async (stack: RunningStack, adminToken: string, ownerToken: string, prodRate: number) => {
  const { info } = stack;
  const counter = countAwsRequests(info.tables.readings!);
  const sqs = new SQSClient({ region: info.region, endpoint: info.endpoints.sqs, credentials: LOCAL_CREDENTIALS });
  const worker = (await import('../../functions/sensor-data/worker')).handler as unknown as SqsHandler;

  const measureHour = async (
    label: string,
    readingsPerBatch: number,
    hourStart: number,
    coalesced: boolean,
    { alerts = false }: { alerts?: boolean } = {},
  ): Promise<HourMeasured> => {
    const { id: deviceId } = await benchDevice(stack, {
      adminToken,
      ownerToken,
      serial: `COST${Date.now().toString(36).toUpperCase()}${readingsPerBatch}${alerts ? 'A' : ''}`,
    });
    // Alerting (issue 37): three threshold rules (never crossed: once the device record says its tracks are at rest,
    // a batch reads no alert state, decision 097) and a silence rule with the learned default (the sweep, run every
    // simulated minute, looks at the device once per silence it waits for).
    const sweep = alerts ? createSweepDeps(readEnv(ALERTS_ENV)).sweep : undefined;
    if (alerts) {
      const rules = createAreaClient(AREAS.alerts, {
        baseUrl: `${info.endpoints.gateway}/alerts`,
        getToken: () => ownerToken,
      });
      const target = { kind: 'device' as const, id: deviceId };
      for (const above of [35, 55, 150]) {
        await rules.createRule({
          body: {
            name: `Cost PM2.5 above ${above}`,
            target,
            condition: { kind: 'threshold', measurement: 'pm2_5', above, forSeconds: 0 },
            enabled: true,
          },
        });
      }
      await rules.createRule({ body: { name: 'Cost silence', target, condition: { kind: 'silence' }, enabled: true } });
    }
    const sweepMs: number[] = [];
    const batchesPerHour = 60 / readingsPerBatch;
    // The ingest use case as its Lambdas build it, on the stack's clients, with the hour's clock: its coalescing
    // decides by the time a batch arrives, and the hour is replayed in seconds.
    let clock = hourStart;
    const { ingest } = createIngestDeps(
      { ...readDataIngressEnv(), coalescing: coalesced ? 'hour' : 'none' },
      { now: () => clock },
    );
    const ingestMs: number[] = [];
    const workerMs: number[] = [];
    let rollupMessages = 0;
    // The stack's own workers are held: the roll-ups are worked here, as a device's roll-ups arrive in the cloud (a
    // FIFO group per device), each invocation timed. Not coalesced: one message at a time, as each batch sends it.
    // Coalesced: the hour's messages come due together after the hour (ROLLUP_GRACE_MS), so they are all sent first
    // and then worked in the event source's batches; the first recomputes the hour, the rest find it done.
    await untilQueueEmpty(sqs, info.queues.sensorData!);
    await stack.pauseWorkers();
    const timedWorker: SqsHandler = async (event) => {
      const started = performance.now();
      const result = await worker(event);
      workerMs.push(performance.now() - started);
      rollupMessages += event.Records.length;
      return result;
    };
    const startPoller = () =>
      startSqsPoller({
        sqs,
        queueUrl: info.queues.sensorData!,
        queueArn: '',
        handler: timedWorker,
        batchSize: coalesced ? WORKER_BATCH_SIZE : 1,
        waitSeconds: 1,
      });
    let poller = coalesced ? undefined : startPoller();
    const tally = await counter.during(async () => {
      for (let batch = 0; batch < batchesPerHour; batch++) {
        const readings = Array.from({ length: readingsPerBatch }, (_, i) => {
          const minute = batch * readingsPerBatch + i;
          return {
            timestamp: hourStart + minute * MINUTE + 17_000,
            values: { pm2_5: 4 + (minute % 9), pm10: 9 + (minute % 13), temperature: 11.5, humidity: 62 },
          };
        });
        clock = readings.at(-1)!.timestamp + 3_000;
        const started = performance.now();
        const result = await ingest(deviceId, { readings, firmwareVersion: '1.0.0' });
        ingestMs.push(performance.now() - started);
        if (result.device !== 'ok' || result.accepted !== readings.length) {
          throw new Error(`Ingest stored ${result.accepted} of ${readings.length} readings (${result.device})`);
        }
        if (!coalesced) await untilQueueEmpty(sqs, info.queues.sensorData!);
        if (sweep) {
          const sweepStarted = performance.now();
          await sweep.run(clock);
          sweepMs.push(performance.now() - sweepStarted);
        }
      }
      if (coalesced) {
        // Past the recompute's margin for SQS's and the worker's clocks, as the grace minute is in the cloud.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        poller = startPoller();
        await untilQueueEmpty(sqs, info.queues.sensorData!);
      }
    });
    await poller?.stop();
    stack.resumeWorkers();
    return {
      label,
      batchesPerHour,
      coalesced,
      tally,
      ingestMs: median(ingestMs),
      workerMs: median(workerMs),
      workerInvocations: workerMs.length,
      rollupMessages,
      sweepMs: sweepMs.reduce((sum, ms) => sum + ms, 0),
    };
  };

  // Whole hours two and three days back, away from any day's edge, so no run depends on the clock.
  const hourAt = (daysBack: number) => Math.floor(Date.now() / 86_400_000 - daysBack) * 86_400_000 + 10 * 3_600_000;
  const measured = [
    await measureHour('a batch every minute (1 reading), rolled up after each', 1, hourAt(2), false),
    await measureHour('a batch every minute (1 reading), rolled up hourly', 1, hourAt(3), true),
    await measureHour('a batch every 10 minutes (10 readings), rolled up hourly', 10, hourAt(4), true),
    await measureHour(
      'a batch every minute, rolled up hourly, with alerts (3 thresholds, a silence)',
      1,
      hourAt(5),
      true,
      {
        alerts: true,
      },
    ),
  ];
  printCost(measured, 0.05);
  // What alerting adds: the same hour with and without the device's rules.
  for (const path of ['mqtt', 'https'] as const) {
    const added = priceMonth(measured[3]!, path, FLEET).total - priceMonth(measured[1]!, path, FLEET).total;
    console.log(
      `  Alerting (3 threshold rules and a silence rule on the device, the sweep every minute) adds ${money(added)} per device-month over ${path.toUpperCase()} (${FLEET.toLocaleString('en')} devices).`,
    );
  }
  // What production runs: hourly roll-ups.
  printFleetLimits(measured[1]!, prodRate);
  console.log(
    '\n  Not in the figures: what does not grow with devices (the web app, CloudWatch alarms and dashboard, custom' +
      '\n  metrics, Secrets Manager, the WAF, idle SQS polling by the event sources), data transfer out, and the' +
      `\n  people's own reads (charts, downloads). The ${QUEUES.sensorData.fifo ? 'FIFO ' : ''}sensor-data queue's` +
      "\n  event source receives and deletes each message (two requests, added). Lambda durations are this machine's.",
  );
};
