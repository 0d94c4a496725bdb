import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { createAlertEvaluator } from '../../functions/_shared/alerts/alert-evaluator';
import type { AlertEffect, StoredRule } from '../../functions/_shared/alerts/alert-model';
import { type createStateTable, DUE_SHARDS } from '../../functions/_shared/alerts/state-table';
import { medianGap } from '../../functions/alerts/domain/batch-interval';
import { createSweep } from '../../functions/alerts/domain/sweep';
import type { RunningStack } from '../../infra/local/stack';
import { MIN_LEARNED_SILENCE_MS } from '../../shared/alerts/alert-rules';
import type { AlertRuleInput } from '../../shared/contracts/alerts';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { alertStatesInMemory } from '../support/alert-states-memory';
import { silentLog } from '../support/log';
import { benchDevice } from './bench-device';

/**
 * `npm run bench` section `alerts` (issue 37):
 * - Silence: BENCH_SILENCE_DEVICES (10,000) simulated devices reporting every 1, 2, 5, 10 or 15 minutes (±10 %),
 *   watched by one silence rule with the learned default, through the real evaluator and sweep in this process, over
 *   the alert state table in memory (no stack; the rule, the devices' last readings and their recent batches are the
 *   simulation's too). The clock is simulated: the sweep runs every simulated minute. 1 % of the devices stop: the share whose silence is
 *   seen within max(2 × interval, 5 min) of the report they missed, and false alarms among the rest.
 * - Threshold: a reading past a rule's limit through POST /data-ingress/readings → the person's banner on the
 *   deliveries table (the jobs queue and notifications worker between), and ingest throughput with 3 rules per device
 *   ÷ without, by the gateway with one-reading batches from many devices (alternateRounds). On 2026-11-29, two shared
 *   cores: 1.06 best ÷ best, 1.07 the median of 6 pairs, CPU 24.4 / 25.7 ms a batch, load average 7.6 → 3.3 (before
 *   decision 097, at load 3.9: 0.97 and 0.98, 9 store calls a batch against 8; now 8 and 8); docs/alerts.md.
 * - Flapping: 400 readings in an hour alternating 33 and 37 around a limit of 35 (200 crossings), default hysteresis.
 */

const MIN = 60_000;
const SILENCE_DEVICES = Number(process.env.BENCH_SILENCE_DEVICES ?? 10_000);
const SIM_MINUTES = Number(process.env.BENCH_SILENCE_MINUTES ?? 90);
const INTERVALS_MIN = [1, 2, 5, 10, 15];
const THROUGHPUT_DEVICES = Number(process.env.BENCH_ALERT_DEVICES ?? 40);
const THROUGHPUT_BATCHES = Number(process.env.BENCH_ALERT_BATCHES ?? 600);
const THROUGHPUT_ROUNDS = Number(process.env.BENCH_ALERT_ROUNDS ?? 6);
const CONCURRENCY = 8;
/** BENCH_ALERT_PARTS=silence,latency,throughput,flapping chooses the parts (all by default). */
const PARTS = new Set((process.env.BENCH_ALERT_PARTS ?? 'silence,latency,throughput,flapping').split(','));

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// ---- Silence ------------------------------------------------------------------------------------------------

interface SimDevice {
  id: string;
  intervalMs: number;
  /** Report times, newest last (the last day's: what the interval is learned from). */
  reports: number[];
  nextAt: number;
  /** When it stops reporting (undefined: never). */
  stopsAt?: number;
}

type SilenceStates = Pick<
  ReturnType<typeof createStateTable>,
  'get' | 'write' | 'markAtRest' | 'due' | 'touch' | 'clearOutbox'
>;

/**
 * The silence simulation. `states`: by default the alert state table in memory (test/support/alert-states-memory.ts,
 * the due index and versioned writes as DynamoDB keeps them), so 10,000 devices over 90 simulated minutes finish in
 * a couple of minutes; the stack's table (dynalite) gives the same detection with its own, much slower, timings.
 */
export const benchSilence = async (
  states: SilenceStates = alertStatesInMemory().store,
  { devices: count = SILENCE_DEVICES, minutes = SIM_MINUTES } = {},
) => {
  // Two days back: the stack's own due devices (now-ish) are never due at the simulated times.
  const t0 = Math.floor(Date.now() / MIN) * MIN - 2 * 24 * 60 * MIN;
  const run = randomUUID().slice(0, 8);
  let clock = t0;
  const rule: StoredRule = {
    id: `bench-silence-${run}`,
    name: 'Bench silence',
    target: { kind: 'organization', id: `bench-org-${run}` },
    condition: { kind: 'silence' },
    recipients: [],
    enabled: true,
    createdBy: 'bench',
    created: t0,
    updated: t0,
  };
  const devices: SimDevice[] = Array.from({ length: count }, (_, i) => {
    const intervalMs = INTERVALS_MIN[i % INTERVALS_MIN.length]! * MIN;
    // Three hours of history before the start, on each device's own phase.
    const phase = Math.floor(Math.random() * intervalMs);
    const reports: number[] = [];
    for (let t = t0 - 3 * 60 * MIN + phase; t < t0; t += intervalMs) reports.push(t);
    return {
      id: `bench-silent-${run}-${i}`,
      intervalMs,
      reports: reports.slice(-20),
      nextAt: reports.at(-1)! + intervalMs,
    };
  });
  // 1 % stop reporting at a random moment between 20 and 50 minutes in.
  const stopping = new Set<string>();
  for (const device of devices) {
    if (Math.random() < 0.01) {
      device.stopsAt = t0 + (20 + Math.random() * 30) * MIN;
      stopping.add(device.id);
    }
  }
  const byId = new Map(devices.map((d) => [d.id, d]));
  const fired = new Map<string, number>();
  // One list, as the cache answers: the evaluator knows a device's tracks are set up for the rules it saw.
  const ruleList = [rule];
  const rules = { rulesOf: async () => ruleList, refresh: async () => undefined };
  const effects = {
    deliver: async (deviceId: string, done: readonly AlertEffect[]) => {
      for (const effect of done) {
        if (effect.notice?.change === 'fired' && !fired.has(deviceId)) fired.set(deviceId, effect.record!.firedAt!);
      }
      await states.clearOutbox(
        deviceId,
        done.map((e) => e.id),
      );
    },
  };
  const evaluator = createAlertEvaluator({
    rules,
    states,
    effects,
    now: () => clock,
    newId: randomUUID,
    log: silentLog,
  });
  const sweep = createSweep({
    states,
    rules,
    devices: {
      facts: async (id) => ({ id, lastSeen: byId.get(id)?.reports.at(-1), measurementNames: [], measurementUnits: {} }),
    },
    sources: {
      batchInterval: async (id, now) => medianGap(byId.get(id)?.reports.filter((t) => t > now - 24 * 60 * MIN) ?? []),
      plan: async () => null,
    },
    effects,
    log: silentLog,
    clock: Date.now,
    newId: randomUUID,
    budgetMs: 10 * MIN,
    lanes: 16,
  });

  // The rule's creation makes every device of its target due (as the API's touch does); the first run sets them up.
  const touchStarted = performance.now();
  for (let i = 0; i < devices.length; i += 64) {
    await Promise.all(devices.slice(i, i + 64).map((d) => states.touch(d.id, t0)));
  }
  const touchSeconds = (performance.now() - touchStarted) / 1000;
  const firstStarted = performance.now();
  const first = await sweep.run(t0);
  const firstSeconds = (performance.now() - firstStarted) / 1000;

  const runs: { seconds: number; due: number }[] = [];
  let reports = 0;
  for (let minute = 1; minute <= minutes; minute++) {
    const end = t0 + minute * MIN;
    const due = devices
      .filter((d) => d.nextAt <= end && (d.stopsAt === undefined || d.nextAt < d.stopsAt))
      .sort((a, b) => a.nextAt - b.nextAt);
    for (let i = 0; i < due.length; i += 32) {
      await Promise.all(
        due.slice(i, i + 32).map(async (device) => {
          const at = device.nextAt;
          const previous = device.reports.at(-1);
          device.reports.push(at);
          if (device.reports.length > 40) device.reports.shift();
          // ±10 % around the interval.
          device.nextAt = at + device.intervalMs * (0.9 + Math.random() * 0.2);
          clock = Math.max(clock, at + 500);
          reports += 1;
          await evaluator.afterStored({
            deviceId: device.id,
            readings: [{ timestamp: at, values: { battery: 80 } }],
            receivedAt: at + 500,
            ...(previous === undefined ? {} : { previousLastSeen: previous }),
          });
        }),
      );
    }
    clock = end;
    const started = performance.now();
    const result = await sweep.run(end);
    runs.push({ seconds: (performance.now() - started) / 1000, due: result.due });
  }

  let withinBound = 0;
  const late: number[] = [];
  for (const id of stopping) {
    const device = byId.get(id)!;
    const missed = device.reports.at(-1)! + device.intervalMs;
    const bound = Math.max(2 * device.intervalMs, MIN_LEARNED_SILENCE_MS);
    const firedAt = fired.get(id);
    if (firedAt !== undefined && firedAt - missed <= bound) withinBound += 1;
    if (firedAt !== undefined) late.push((firedAt - missed) / MIN);
  }
  const falseAlarms = [...fired.keys()].filter((id) => !stopping.has(id)).length;
  const steady = runs.slice(5);
  return {
    devices: devices.length,
    minutes,
    reports,
    silent: stopping.size,
    detected: [...stopping].filter((id) => fired.has(id)).length,
    withinBound,
    falseAlarms,
    medianDelayMin: median(late),
    maxDelayMin: Math.max(0, ...late),
    touchSeconds,
    first: { ...first, seconds: firstSeconds },
    steadyMedianSeconds: median(steady.map((r) => r.seconds)),
    steadyMaxSeconds: Math.max(...steady.map((r) => r.seconds)),
    steadyMedianDue: median(steady.map((r) => r.due)),
  };
};

/** Whether the chosen parts need the local stack (the silence simulation does not). */
export const alertPartsNeedStack = () => ['latency', 'throughput', 'flapping'].some((part) => PARTS.has(part));

/**
 * The silence part, without the stack: the real evaluator (at each simulated report, as ingest calls it) and the real
 * sweep (each simulated minute) in this process, over the state table in memory; the clock is the simulation's.
 */
export const printAlertSilence = async () => {
  if (!PARTS.has('silence')) return;
  const silence = await benchSilence();
  const rows = [
    {
      measure: `silence: ${silence.devices.toLocaleString('en')} devices (every ${INTERVALS_MIN.join(', ')} min ±10 %), ${silence.minutes} simulated minutes, ${silence.reports.toLocaleString('en')} reports; ${silence.silent} stop`,
      value: `${silence.detected} seen; ${silence.withinBound} (${((silence.withinBound / Math.max(1, silence.silent)) * 100).toFixed(1)} %) within max(2 × interval, 5 min) of the report missed (goal ≥ 99 %)`,
    },
    {
      measure: '  after the report missed: median, longest',
      value: `${silence.medianDelayMin.toFixed(1)} min, ${silence.maxDelayMin.toFixed(1)} min`,
    },
    { measure: '  false alarms among devices reporting on time (goal 0)', value: String(silence.falseAlarms) },
    {
      measure: `  sweep of ${silence.first.due.toLocaleString('en')} due devices (each set up: interval learned, track written)`,
      value: `${silence.first.seconds.toFixed(1)} s (the touch of all: ${silence.touchSeconds.toFixed(1)} s), ${DUE_SHARDS} index partitions`,
    },
    {
      measure: '  a sweep each minute after: devices looked at (median), time (median, longest)',
      value: `${silence.steadyMedianDue}, ${silence.steadyMedianSeconds.toFixed(2)} s, ${silence.steadyMaxSeconds.toFixed(2)} s`,
    },
  ];
  console.log(
    '\nAlerts: silence (issue 37), in process: the evaluator and the sweep, the state table in memory, a simulated clock\n',
  );
  console.table(rows);
};

// ---- Through the gateway ------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** `count` sends, `concurrency` at a time: batches per second, and this process's CPU per batch (every thread). */
export const ingestRound = async (count: number, concurrency: number, sendOne: (n: number) => Promise<void>) => {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let n = next++; n < count; n = next++) await sendOne(n);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { perSecond: count / ((performance.now() - started) / 1000), cpuMs: (used.user + used.system) / 1000 / count };
};

type Round = () => Promise<{ perSecond: number; cpuMs: number }>;

/**
 * A throughput ratio as the bench takes it: both sides warmed once, then `rounds` pairs of rounds, the side that goes
 * first alternating (a burst of other work on the shared cores, or load that rises or falls, then lowers both sides
 * alike); best of each side, and the median of the pairs' own ratios; the machine's load beside it.
 */
export const alternateRounds = async (rounds: number, without: Round, withIt: Round) => {
  await without();
  await withIt();
  const loadBefore = loadavg()[0]!;
  const a: Awaited<ReturnType<Round>>[] = [];
  const b: Awaited<ReturnType<Round>>[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      a.push(await without());
      b.push(await withIt());
    } else {
      b.push(await withIt());
      a.push(await without());
    }
  }
  const loadAfter = loadavg()[0]!;
  const best = (runs: typeof a) => Math.max(...runs.map((r) => r.perSecond));
  const leastCpu = (runs: typeof a) => Math.min(...runs.map((r) => r.cpuMs));
  const rates = (runs: typeof a) => runs.map((r) => Math.round(r.perSecond)).join(' / ');
  const pairs = a.map((r, i) => b[i]!.perSecond / r.perSecond).sort((x, y) => x - y);
  const medianPair =
    pairs.length % 2 ? pairs[pairs.length >> 1]! : (pairs[pairs.length / 2 - 1]! + pairs[pairs.length / 2]!) / 2;
  return {
    rates: `${Math.round(best(a))} / ${Math.round(best(b))} batches/s (rounds ${rates(a)} vs ${rates(b)})`,
    cpu: `${leastCpu(a).toFixed(1)} / ${leastCpu(b).toFixed(1)}`,
    ratio: `${(best(b) / best(a)).toFixed(2)} best ÷ best; ${medianPair.toFixed(2)} the median of the ${pairs.length} pairs (${pairs.map((r) => r.toFixed(2)).join(', ')})`,
    load: `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`,
  };
};

/** One batch through POST /data-ingress/readings over a kept-alive connection (as the ingest bench sends them). */
const post = (gateway: string, credential: string, readings: unknown[]) =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ readings });
    const req = httpRequest(
      `${gateway}/data-ingress/readings`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${credential}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`Ingest answered ${response.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });

const threshold = (deviceId: string, above: number, name = `Bench PM ${randomUUID().slice(0, 6)}`): AlertRuleInput => ({
  name,
  target: { kind: 'device', id: deviceId },
  condition: { kind: 'threshold', measurement: 'pm2_5', above, forSeconds: 0 },
  enabled: true,
});

export const benchAlerts = async (
  stack: RunningStack,
  { adminToken, ownerToken, ownerId }: { adminToken: string; ownerToken: string; ownerId: string },
) => {
  const { info } = stack;
  const gateway = info.endpoints.gateway;
  const alerts = createAreaClient(AREAS.alerts, { baseUrl: `${gateway}/alerts`, getToken: () => ownerToken });
  const notifications = createAreaClient(AREAS.notifications, {
    baseUrl: `${gateway}/notifications`,
    getToken: () => adminToken,
  });
  const device = (serial: string) => benchDevice(stack, { adminToken, ownerToken, serial });
  const serial = (prefix: string, i: number) => `${prefix}${Date.now().toString(36).toUpperCase()}${i}`;

  const step = (what: string) => console.log(`  alerts: ${what} (${new Date().toISOString().slice(11, 19)})`);
  const rows: { measure: string; value: string }[] = [];
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_100));

  if (PARTS.has('latency')) {
    step('ingest → banner');
    // A rule in force, then a reading past it; the banner polled on the person's bar.
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await device(serial('ALRT', i));
      const rule = await alerts.createRule({ body: threshold(d.id, 35) });
      await settle();
      const started = performance.now();
      await post(gateway, d.credential, [{ timestamp: Date.now(), values: { pm2_5: 80 } }]);
      for (;;) {
        const { items } = await notifications.listUserNotifications({ params: { id: ownerId, x: 20 } });
        if (items.some((banner) => banner.title === `${rule.name}: firing`)) break;
        if (performance.now() - started > 60_000) throw new Error('No banner within a minute');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      latencies.push(performance.now() - started);
    }
    rows.push({
      measure: 'threshold: reading ingested → banner on the person’s bar (goal ≤ 5 s locally)',
      value: `median ${(median(latencies) / 1000).toFixed(2)} s, longest ${(Math.max(...latencies) / 1000).toFixed(2)} s (${latencies.length} runs)`,
    });
  }

  if (PARTS.has('throughput')) {
    step('throughput');
    // One-reading batches from many devices, without rules and with three each (none crossing).
    const plain = await Promise.all(Array.from({ length: THROUGHPUT_DEVICES }, (_, i) => device(serial('PLN', i))));
    const watched = await Promise.all(Array.from({ length: THROUGHPUT_DEVICES }, (_, i) => device(serial('WCH', i))));
    for (const d of watched) {
      for (const above of [35, 55, 150]) await alerts.createRule({ body: threshold(d.id, above) });
    }
    await settle();
    const base = Date.now() - 50 * MIN;
    let tick = 0;
    const round = (fleet: { credential: string }[]) =>
      ingestRound(THROUGHPUT_BATCHES, CONCURRENCY, (n) => {
        tick += 1;
        return post(gateway, fleet[n % fleet.length]!.credential, [
          { timestamp: base + tick * 100, values: { pm2_5: 8 + (tick % 12), temperature: 21 } },
        ]);
      });
    // The workers (roll-ups, notifications) and the sweep held, as the ingest bench holds them; both paths warmed
    // (rule caches, connections), then rounds in alternating order (alternateRounds).
    await stack.pauseWorkers();
    const ratio = await alternateRounds(
      THROUGHPUT_ROUNDS,
      () => round(plain),
      () => round(watched),
    );
    stack.resumeWorkers();
    rows.push(
      {
        measure: `ingest, one-reading batches from ${THROUGHPUT_DEVICES} devices, ${CONCURRENCY} at a time: without rules / with 3 each`,
        value: ratio.rates,
      },
      { measure: '  CPU of this process per batch (ms, least of the rounds): without / with', value: ratio.cpu },
      { measure: '  with 3 rules ÷ without (goal ≥ 0.9)', value: ratio.ratio },
      { measure: '  load average (1 min) before / after the rounds, 2 cores', value: ratio.load },
    );
  }

  if (PARTS.has('flapping')) {
    step('flapping');
    // 200 crossings of the limit in an hour.
    const flap = await device(serial('FLAP', 0));
    const flapRule = await alerts.createRule({ body: threshold(flap.id, 35) });
    await settle();
    const hourAgo = Date.now() - 59 * MIN;
    for (let i = 0; i < 400; i++) {
      await post(gateway, flap.credential, [{ timestamp: hourAgo + i * 8_800, values: { pm2_5: i % 2 ? 37 : 33 } }]);
    }
    await post(gateway, flap.credential, [{ timestamp: Date.now(), values: { pm2_5: 20 } }]);
    let banners = 0;
    for (let wait = 0; wait < 40; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { items } = await notifications.listUserNotifications({ params: { id: ownerId, x: 100 } });
      banners = items.filter((banner) => banner.title.startsWith(`${flapRule.name}:`)).length;
      if (banners >= 2 && wait > 8) break;
    }
    rows.push({
      measure: 'flapping: 400 readings in an hour, 200 crossings of 35 (clears below 31.5), then 20',
      value: `${banners} notifications (goal ≤ 2)`,
    });
  }

  console.log('\nAlerts (issue 37)\n');
  console.table(rows);
  console.log('  What alerting adds per device-month: the cost section, its "with alerts" column.');
};
