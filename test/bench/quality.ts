import { flagReadings, type QualityState } from '../../functions/_shared/sensor-data/quality-flags';
import { readingItems, type StoredReading } from '../../functions/_shared/sensor-data/readings-store';
import { createIngestDeps, readDataIngressEnv } from '../../functions/data-ingress/deps';
import type { RunningStack } from '../../infra/local/stack';
import { alternateRounds, ingestRound } from './alerts';
import { benchDevice } from './bench-device';

const MINUTE = 60_000;
const BATCH = 60;
const INGEST_DEVICES = Number(process.env.BENCH_QUALITY_DEVICES ?? 40);
const INGEST_BATCHES = Number(process.env.BENCH_QUALITY_BATCHES ?? 600);
const INGEST_ROUNDS = Number(process.env.BENCH_QUALITY_ROUNDS ?? 6);
const CONCURRENCY = 8;
/** BENCH_QUALITY_PARTS=flags,ingest chooses the parts (both by default); `ingest` needs the local stack. */
const PARTS = new Set((process.env.BENCH_QUALITY_PARTS ?? 'flags,ingest').split(','));

export const qualityPartsNeedStack = () => PARTS.has('ingest');

/** A seeded random in [0, 1): the same series on every run. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/**
 * A month of one-minute PM2.5 that varies as a real sensor's does (a daily swing and noise), with 50 spikes, 5 stuck
 * periods of 3 hours and 3 values out of range injected at known places, spread apart.
 */
export const generatedSeries = (start: number) => {
  const next = random(39);
  const length = 30 * 24 * 60;
  const readings: StoredReading[] = Array.from({ length }, (_, i) => ({
    timestamp: start + i * MINUTE,
    values: { pm2_5: Math.round((12 + 6 * Math.sin((2 * Math.PI * i) / 1440) + 3 * next()) * 10) / 10 },
  }));
  const injected = { spikes: new Set<number>(), stuck: new Set<number>(), range: new Set<number>() };
  for (let k = 0; k < 50; k++) {
    const i = 500 + k * 800;
    readings[i]!.values.pm2_5 = 400 + k;
    injected.spikes.add(i);
  }
  for (let k = 0; k < 5; k++) {
    const from = 41_000 + k * 400;
    for (let i = from; i < from + 180; i++) readings[i]!.values.pm2_5 = 9.9;
    // Stuck once the value has held 2 hours: the last hour of each period.
    for (let i = from + 121; i < from + 180; i++) injected.stuck.add(i);
  }
  for (const i of [5_000, 15_000, 25_000]) {
    readings[i]!.values.pm2_5 = 1_500;
    injected.range.add(i);
  }
  return { readings, injected };
};

/** Flags a series in ingest's batches, the device record's state carried from one to the next. */
const flagInBatches = (readings: readonly StoredReading[]) => {
  let state: QualityState | undefined;
  const out: StoredReading[] = [];
  for (let i = 0; i < readings.length; i += BATCH) {
    const flagged = flagReadings(readings.slice(i, i + BATCH), state);
    state = flagged.state ?? state;
    out.push(...flagged.readings);
  }
  return out;
};

const timed = (op: () => void, rounds = 3) => {
  op();
  const started = performance.now();
  for (let r = 0; r < rounds; r++) op();
  return (performance.now() - started) / rounds;
};

/**
 * `npm run bench` section `quality` (issue 39), in process: the flags found on the generated series and the false ones
 * on its clean stretches; and the CPU the flags add to an ingest batch of 60 readings, beside the building of its
 * readings items, over a month of one-minute readings (the batch's store write, the same either way, is section
 * `ingest`'s). The year's reprocessing and the series with values=both ÷ corrected are section `chart`'s
 * (test/bench/chart.ts); ingest with flags ÷ without, on the local stack, is benchQualityIngest below.
 */
export const benchQuality = () => {
  if (!PARTS.has('flags')) return;
  const { readings, injected } = generatedSeries(Date.UTC(2026, 0, 1));
  const flagged = flagInBatches(readings);
  const has = (i: number, reason: string) => flagged[i]!.flags?.pm2_5?.includes(reason as never) ?? false;
  const found = {
    spikes: [...injected.spikes].filter((i) => has(i, 'step_too_high')).length,
    stuck: [...injected.stuck].filter((i) => has(i, 'stuck_value')).length,
    range: [...injected.range].filter((i) => has(i, 'over_range')).length,
  };
  const expected = new Set([...injected.spikes, ...injected.stuck, ...injected.range]);
  // A clean reading is one no injection touched: the stuck periods' first two hours are clean too (a value may hold).
  const clean = flagged.filter((_, i) => !expected.has(i) && !(i >= 41_000 && i < 43_000 + 180));
  const falseFlags = clean.filter((r) => r.flags).length;

  const itemsOnly = timed(() => {
    for (let i = 0; i < readings.length; i += BATCH) readingItems('bench', readings.slice(i, i + BATCH), 0);
  });
  const withFlags = timed(() => {
    let state: QualityState | undefined;
    for (let i = 0; i < readings.length; i += BATCH) {
      const out = flagReadings(readings.slice(i, i + BATCH), state);
      state = out.state ?? state;
      readingItems('bench', out.readings, 0);
    }
  });

  console.log(
    `\nData quality (issue 39): a month of one-minute PM2.5 (${readings.length.toLocaleString('en')} readings)\n`,
  );
  console.table([
    { figure: 'spikes found (step_too_high)', value: `${found.spikes} / ${injected.spikes.size}`, goal: 'all' },
    { figure: 'stuck values found (stuck_value)', value: `${found.stuck} / ${injected.stuck.size}`, goal: 'all' },
    { figure: 'out of range found (over_range)', value: `${found.range} / ${injected.range.size}`, goal: 'all' },
    {
      figure: 'false flags on clean stretches',
      value: `${falseFlags} of ${clean.length.toLocaleString('en')} (${((100 * falseFlags) / clean.length).toFixed(3)} %)`,
      goal: '≤ 0.1 %',
    },
    {
      figure: 'CPU per ingest batch of 60 (ms): items built / flags and items',
      value: `${((itemsOnly * BATCH) / readings.length).toFixed(3)} / ${((withFlags * BATCH) / readings.length).toFixed(3)}`,
      goal: 'small beside the batch write (section ingest)',
    },
    {
      figure: 'flagging, readings per second (one core)',
      value: Math.round((readings.length / withFlags) * 1000),
      goal: '',
    },
  ]);
};

/**
 * Ingest with the quality flags ÷ without (issue 39's goal ≥ 0.9), on the local stack: one-reading batches from
 * BENCH_QUALITY_DEVICES (40) devices per side, 8 at a time, in alternating rounds as the alerts bench takes its ratio
 * (alternateRounds). Each side is the ingest use case as the data-ingress Lambda builds it (`createIngestDeps`, the
 * stack's tables, queue and clients); "without" replaces the checks by none, so nothing is flagged and no memory is
 * kept: ingest as it was before issue 39. Not through the gateway, whose handler has no
 * way to turn the checks off: its hop (HTTP, the credential's read, the middy chain) is the same on both sides, so
 * the ratio through it is at least this one. Figures before and after the memory went into ingest's one write of the
 * device record (decision 102): docs/data-quality.md, "Measured".
 */
export const benchQualityIngest = async (
  stack: RunningStack,
  { adminToken, ownerToken }: { adminToken: string; ownerToken: string },
) => {
  if (!PARTS.has('ingest')) return;
  const stamp = Date.now().toString(36).toUpperCase();
  const fleet = (prefix: string) =>
    Promise.all(
      Array.from({ length: INGEST_DEVICES }, (_, i) =>
        benchDevice(stack, { adminToken, ownerToken, serial: `${prefix}${stamp}${i}` }),
      ),
    );
  const flagged = await fleet('QFL');
  const plain = await fleet('QNO');
  const env = readDataIngressEnv();
  const withFlags = createIngestDeps(env).ingest;
  const withoutFlags = createIngestDeps(env, { flag: (readings) => ({ readings: [...readings] }) }).ingest;
  const next = random(7);
  const base = Date.now() - 50 * MINUTE;
  let tick = 0;
  const round = (ingest: typeof withFlags, devices: { id: string }[]) =>
    ingestRound(INGEST_BATCHES, CONCURRENCY, async (n) => {
      tick += 1;
      // A value that varies as a sensor's does, now and then a spike: the checks' usual work, flags among it.
      const pm = tick % 97 === 0 ? 600 : Math.round((12 + 3 * next()) * 10) / 10;
      const outcome = await ingest(devices[n % devices.length]!.id, {
        readings: [{ timestamp: base + tick * 100, values: { pm2_5: pm, temperature: 21 + next(), humidity: 40 } }],
      });
      if (outcome.accepted !== 1) throw new Error(`Ingest stored ${outcome.accepted} of 1`);
    });
  await stack.pauseWorkers();
  const ratio = await alternateRounds(
    INGEST_ROUNDS,
    () => round(withoutFlags, plain),
    () => round(withFlags, flagged),
  );
  stack.resumeWorkers();
  console.log('\nData quality (issue 39): ingest with flags ÷ without, the ingest use case on the local stack\n');
  console.table([
    {
      measure: `one-reading batches from ${INGEST_DEVICES} devices a side, ${CONCURRENCY} at a time: without flags / with`,
      value: ratio.rates,
    },
    { measure: '  CPU of this process per batch (ms, least of the rounds): without / with', value: ratio.cpu },
    { measure: '  with flags ÷ without (goal ≥ 0.9)', value: ratio.ratio },
    { measure: '  load average (1 min) before / after the rounds, 2 cores', value: ratio.load },
  ]);
};
