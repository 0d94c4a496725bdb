import path from 'node:path';
import { startGateway } from '../../../infra/local/gateway';
import { LOCAL_ENV_NAME } from '../../../shared/config/environment-names';
import { AREAS } from '../../../shared/contracts/areas';
import { createAreaClient } from '../../../shared/contracts/client';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy';
import {
  deleteOwnQueue,
  type OwnQueue,
  ownQueue,
  startWorkerProcess,
  untilQueueEmpty,
  waitingIn,
} from '../../support/queues';
import {
  chartObject,
  eventually,
  freshDevice,
  ingest,
  storedReadings,
  storedRollups,
  type TestDevice,
} from '../../support/sensor-data';
import { sqsClient, stack } from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

/**
 * Issue 39: reprocessing is idempotent and resumes after a crash (docs/data-quality.md "Roll-ups and reprocessing").
 * A calibration posted through a gateway of this file's own (the sensor-data area in-process, as the stack runs it,
 * its queue pointed at a queue of this file's, so the stack's own worker never sees the run) starts a run over three
 * months of readings. Its worker, the real one in a process of its own, is killed with SIGKILL while it writes the
 * second month's chart object; the message it held comes back after its visibility timeout to a second worker
 * process, which finishes the run. Every hour then holds each reading once, corrected; the raw values are as sent.
 */

const rootDir = path.resolve(import.meta.dirname, '../../..');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Seconds the killed worker's message stays hidden before it comes back to the next worker. */
const VISIBILITY_SECONDS = 5;
/** Fixed mornings of three months (no run depends on the clock), none on an hour's first millisecond. */
const MORNINGS = [Date.UTC(2026, 6, 14, 9), Date.UTC(2026, 7, 12, 9), Date.UTC(2026, 8, 16, 9)];
const SENT = MORNINGS.flatMap((morning, month) =>
  Array.from({ length: 12 }, (_, i) => ({
    timestamp: morning + i * 17 * MINUTE + 30_000,
    values: { pm2_5: 6 + month * 2 + ((i * 7) % 11), temperature: 12 + i },
  })),
);
/** The calibration: 2·x + 1 over July to September, whole months, so the run is 92 days in three steps. */
const CALIBRATION = {
  measurement: 'pm2_5',
  formula: { kind: 'linear' as const, a: 2, b: 1 },
  effectiveFrom: Date.UTC(2026, 6, 1),
  effectiveTo: Date.UTC(2026, 9, 1) - 1,
  note: 'Collocated with the reference monitor',
};
const corrected = (x: number) => 2 * x + 1;

/** Each hour's PM2.5 aggregate, counted here from the readings sent (each once), through `f`. */
const expectedHours = (f: (x: number) => number) => {
  const hours = new Map<number, number[]>();
  for (const { timestamp, values } of SENT) {
    const hour = Math.floor(timestamp / HOUR) * HOUR;
    hours.set(hour, [...(hours.get(hour) ?? []), f(values.pm2_5)]);
  }
  return [...hours]
    .sort(([a], [b]) => a - b)
    .map(([ts, list]) => ({
      ts,
      pm2_5: { n: list.length, s: list.reduce((a, b) => a + b, 0), lo: Math.min(...list), hi: Math.max(...list) },
    }));
};

const PERIODS = ['2026-07', '2026-08', '2026-09'];

/** The hours of one of the three months. */
const monthHours = (f: (x: number) => number, month: number) =>
  expectedHours(f).filter((h) => Math.abs(h.ts - MORNINGS[month]!) < DAY);

/** The PM2.5 maxima of a month's hour chart object, in the hours that have any. */
const chartMaxima = async (deviceId: string, period: string) =>
  (await chartObject(deviceId, 'hour', period))?.m.pm2_5?.max.filter((n) => n !== null);

const hoursStored = async (deviceId: string) =>
  (await storedRollups(deviceId, 'hour')).map(({ ts, m }) => ({ ts, pm2_5: m.pm2_5 }));

const rawStored = async (deviceId: string) =>
  (await Promise.all(MORNINGS.map((morning) => storedReadings(deviceId, morning))))
    .flat()
    .map(({ ts, v }) => ({ timestamp: ts, values: v }))
    .sort((a, b) => a.timestamp - b.timestamp);

describe('reprocessing after a worker is killed mid-run', () => {
  const sqs = sqsClient();
  let s3: FaultProxy;
  let queue: OwnQueue;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let restoreEnvironment: () => void = () => undefined;
  const workers: ReturnType<typeof startWorkerProcess>[] = [];

  beforeAll(async () => {
    s3 = await startFaultProxy(stack().endpoints.s3);
    queue = await ownQueue(sqs, 'sensorData', 'reprocess-kill', VISIBILITY_SECONDS);
    restoreEnvironment = useStackEnvironment();
    Object.assign(process.env, {
      SENSOR_DATA_QUEUE_URL: queue.url,
      AUTH_ISSUER: stack().auth.issuer,
      AUTH_CLIENT_IDS: stack().auth.clientId,
      ENV_NAME: LOCAL_ENV_NAME,
      ACCESS_INDEX_SETTLE_MS: '0',
      LOG_LEVEL: 'error',
    });
    gateway = await startGateway({
      port: 0,
      rootDir,
      emulators: () => [],
      corsOrigins: [],
      areas: ['sensor-data'],
    });
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await gateway?.stop();
    restoreEnvironment();
    await deleteOwnQueue(sqs, queue);
    await s3?.stop();
  });

  /** A worker process on this file's queue; its chart objects go through the S3 fault proxy. */
  const startWorker = () => {
    const worker = startWorkerProcess(rootDir, 'functions/sensor-data/worker.ts', queue.url, {
      ...process.env,
      AWS_ENDPOINT_URL_S3: s3.url,
    });
    workers.push(worker);
    return worker;
  };

  const api = (device: TestDevice) =>
    createAreaClient(AREAS['sensor-data'], {
      baseUrl: `${gateway.url}/sensor-data`,
      getToken: () => device.ownerToken,
    });

  it('comes back to the month it was cut in, and ends with each reading once, corrected, the raw values untouched', async () => {
    const device = await freshDevice();
    // Ingested through the stack's own gateway and rolled up by its worker, before any calibration.
    await ingest(device, SENT);
    const rolledUp = async () => {
      const maxima = await Promise.all(PERIODS.map((period) => chartMaxima(device.id, period)));
      return (
        JSON.stringify(await hoursStored(device.id)) === JSON.stringify(expectedHours((x) => x)) &&
        JSON.stringify(maxima) === JSON.stringify(PERIODS.map((_, m) => monthHours((x) => x, m).map((h) => h.pm2_5.hi)))
      );
    };
    // Its last write, each month's chart object, too: a late one would land over what the run writes.
    await eventually(rolledUp);

    const stall = s3.inject((r) => r.method === 'PUT' && r.url.includes(`/charts/${device.id}/hour/2026-08`), 'hold');
    const first = startWorker();
    const calibration = await api(device).addCalibration({ params: { id: device.id }, body: CALIBRATION });
    expect(calibration.version).toBe(1);
    let timer: NodeJS.Timeout | undefined;
    const cut = await Promise.race([
      stall.hit.then(() => 'held'),
      first.exited.then(() => 'exited early'),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve("never reached August's chart object"), 60_000);
      }),
    ]);
    clearTimeout(timer);
    if (cut !== 'held') throw new Error(`The worker process ${cut}:\n${first.output()}`);
    // Cut in August: July is done and counted, August's step is the message in flight.
    expect(await api(device).reprocessing({ params: { id: device.id } })).toMatchObject({
      status: 'running',
      progress: 33,
      doneMs: 31 * DAY,
      totalMs: 92 * DAY,
      pending: 1,
    });
    expect(await waitingIn(sqs, queue.url)).toEqual({ visible: 0, inFlight: 1 });
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    stall.clear();
    // July's chart object is corrected; August's is still the one ingest's roll-up wrote, of the raw values.
    expect(await chartMaxima(device.id, '2026-07')).toEqual(monthHours(corrected, 0).map((h) => h.pm2_5.hi));
    expect(await chartMaxima(device.id, '2026-08')).toEqual(monthHours((x) => x, 1).map((h) => h.pm2_5.hi));

    startWorker();
    await untilQueueEmpty(sqs, queue.url, { timeoutMs: 60_000 });
    expect(stall.hits).toBe(1);
    expect(await api(device).reprocessing({ params: { id: device.id } })).toMatchObject({
      status: 'idle',
      progress: 100,
      pending: 0,
    });
    // Every hour holds each of its readings once, corrected, with the raw values beside them and the version used.
    expect(await hoursStored(device.id)).toEqual(expectedHours(corrected));
    const raw = expectedHours((x) => x);
    for (const [i, hour] of (await storedRollups(device.id, 'hour')).entries()) {
      expect([hour.r?.pm2_5, hour.cal?.pm2_5, hour.pv]).toEqual([raw[i]!.pm2_5, 1, 1]);
      expect(hour.m.temperature?.n).toBe(raw[i]!.pm2_5.n);
    }
    for (const [month, period] of PERIODS.entries()) {
      const object = await chartObject(device.id, 'hour', period);
      const hours = monthHours(corrected, month);
      expect(object?.m.pm2_5?.count.filter((n) => n !== null)).toEqual(hours.map((h) => h.pm2_5.n));
      expect(object?.m.pm2_5?.max.filter((n) => n !== null)).toEqual(hours.map((h) => h.pm2_5.hi));
    }
    // The readings themselves are as the device sent them.
    expect(await rawStored(device.id)).toEqual(SENT);
    expect(await waitingIn(sqs, queue.deadLetterUrl)).toEqual({ visible: 0, inFlight: 0 });
  }, 180_000);
});
