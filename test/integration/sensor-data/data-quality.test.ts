import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Reading } from '../../../shared/contracts/sensor-data-readings';
import { EPA_PURPLEAIR_PRESET } from '../../../shared/sensor-data/calibration';
import { DAY_MS, dayStart, HOUR_MS } from '../../../shared/sensor-data/chart-files';
import { fetchDatasetFile, manifestFile, sha256, waitForDataset } from '../../support/datasets';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import {
  chartObject,
  eventually,
  freshDevice,
  ingest,
  setTier,
  storedReadings,
  storedRollups,
  type TestDevice,
} from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, stack, subOfToken } from '../../support/stack';

/**
 * Issue 39, through the gateway: quality flags at ingest (each reason, in order and out of order), calibrations by
 * version and effective time with the raw values untouched, exclusions leaving and coming back to every reader within
 * 5 s, datasets naming what they were read through, who may change a device's data quality, and bad formulas refused
 * with the field named. Reprocessing that fails half way and resumes: functions/sensor-data/domain/reprocess-job.test.ts,
 * and with its worker process killed mid-run: reprocess-kill.test.ts.
 */

const MINUTE = 60_000;
/** Yesterday 07:00 UTC: every reading of a test lies in one earlier day, far from now whatever the clock says. */
const BASE = dayStart(Date.now()) - DAY_MS + 7 * HOUR_MS;

const quality = (token?: string) => apiAs('sensor-data', token);

/** Every reading of a device between `from` and `to`, oldest first, as the readings route answers them. */
const readAll = async (device: TestDevice, from: number, to: number, query: Record<string, string> = {}) => {
  const page = await quality(device.ownerToken).listReadings({
    params: { id: device.id },
    query: { from, to, limit: 500, ...query } as never,
  });
  return [...page.items].reverse();
};

/**
 * 230 readings a minute apart from BASE, with one of each reason: a spike (30), an impossible PM2.5 (60), a CO₂ below
 * what the air holds (75), PM2.5 stuck at 7.5 for 130 minutes (90-219: stuck from 210 on), and 45 minutes of silence
 * before 220.
 */
const constructed = () =>
  Array.from({ length: 230 }, (_, i) => {
    const timestamp = BASE + i * MINUTE + (i >= 220 ? 45 * MINUTE : 0) + 30_000;
    const pm2_5 = i === 30 ? 400 : i === 60 ? 9_999 : i >= 90 && i < 220 ? 7.5 : 10 + (i % 5) / 2;
    return { timestamp, values: { pm2_5, co2: i === 75 ? 300 : 420 + (i % 7), humidity: 50 + (i % 3) } };
  });

/** The flags the constructed readings must carry, by index and measurement. */
const EXPECTED_FLAGS: Record<number, Record<string, string[]>> = {
  30: { pm2_5: ['step_too_high'] },
  60: { pm2_5: ['over_range', 'step_too_high'] },
  75: { co2: ['under_range'] },
  ...Object.fromEntries(Array.from({ length: 10 }, (_, k) => [210 + k, { pm2_5: ['stuck_value'] }])),
  220: { pm2_5: ['gap_before'], co2: ['gap_before'], humidity: ['gap_before'] },
};

/** A dataset of one device from BASE to `to`, with corrected and raw values, once its build has answered. */
const frozenDataset = async (device: TestDevice, title: string, to: number, qualityColumns: boolean) => {
  const created = await apiAs('datasets', device.ownerToken).createDataset({
    body: {
      title,
      visibility: 'permissioned',
      source: { kind: 'devices', deviceIds: [device.id] },
      from: BASE,
      to,
      values: 'both',
      qualityColumns,
    },
  });
  return (await waitForDataset(created.id, device.ownerToken)).dataset;
};

const flagsBy = (readings: readonly Reading[]) =>
  Object.fromEntries(readings.flatMap((r, i) => (r.reasons ? [[i, r.reasons]] : [])));

describe('quality flags at ingest', () => {
  it('flags each reason on constructed data, sent in order, out of order and sent again alike', async () => {
    const readings = constructed();
    const inOrder = await freshDevice();
    for (let i = 0; i < readings.length; i += 100) await ingest(inOrder, readings.slice(i, i + 100));
    // The same readings, the later batch first and each batch shuffled: each reading is checked against what lies
    // before it in time, in its batch or in what the device's record kept of earlier batches.
    const outOfOrder = await freshDevice();
    const shuffle = <T>(list: T[]) =>
      list
        .map((r, i) => ({ r, k: (i * 7919) % 101 }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.r);
    await ingest(outOfOrder, shuffle(readings.slice(90)));
    await ingest(outOfOrder, shuffle(readings.slice(0, 90)));
    // Each batch sent twice, the second time as a device resends a batch whose readings write failed after the record
    // had kept its values in the checks' history: the readings, written again, keep the flags the first time gave them.
    const resent = await freshDevice();
    for (let i = 0; i < readings.length; i += 100) {
      await ingest(resent, readings.slice(i, i + 100));
      await ingest(resent, readings.slice(i, i + 100));
    }

    const to = readings.at(-1)!.timestamp;
    for (const device of [inOrder, outOfOrder, resent]) {
      const answered = await readAll(device, BASE, to);
      expect(answered).toHaveLength(230);
      expect(flagsBy(answered)).toEqual(EXPECTED_FLAGS);
      expect(answered[60]!.quality).toEqual({ pm2_5: 'bad', co2: 'good', humidity: 'good' });
      expect(answered[30]!.quality!.pm2_5).toBe('suspect');
    }

    // quality=good keeps good values only; no-bad keeps the suspect ones; a reading with nothing kept is not answered.
    const good = await readAll(inOrder, BASE, to, { quality: 'good' });
    expect(good.map((r) => r.values.pm2_5).filter((v) => v === 400 || v === 9_999)).toEqual([]);
    expect(good.every((r) => Object.values(r.quality!).every((q) => q === 'good'))).toBe(true);
    const noBad = await readAll(inOrder, BASE, to, { quality: 'no-bad' });
    expect(noBad.some((r) => r.values.pm2_5 === 400)).toBe(true);
    expect(noBad.some((r) => r.values.pm2_5 === 9_999 || r.values.co2 === 300)).toBe(false);

    // Roll-ups count them per point: the series of the morning has the suspect and bad readings of each bucket (the
    // over-range spike is bad, not suspect, whatever else it is).
    const series = await quality(inOrder.ownerToken).series({
      params: { id: inOrder.id },
      query: { from: BASE, to, width: 10 },
    });
    const pm = series.series.pm2_5!;
    expect(pm.suspect.reduce((a, b) => a + b, 0)).toBe(1 + 10 + 1);
    expect(pm.bad.reduce((a, b) => a + b, 0)).toBe(1);
  });
});

describe("the checks' memory on the device record", () => {
  it('is kept by the one update each batch makes of the record, batches sent at once included (decision 102)', async () => {
    const device = await freshDevice();
    const record = async () =>
      (await documentClient().send(new GetCommand({ TableName: stack().tables.devices!, Key: { id: device.id } })))
        .Item!;
    const kept = async () => ((await record()).qualityState.pm2_5.p as number[][]).map(([, v]) => v);
    const at = (m: number, pm2_5: number) => ({ timestamp: BASE + m * MINUTE + 30_000, values: { pm2_5 } });
    await ingest(device, [at(0, 10), at(1, 11), at(2, 10)]);
    expect(await kept()).toEqual([10, 11, 10]);
    const before = (await record()).seenVersion as number;
    await ingest(device, [at(3, 12)]);
    // One write of the record for the batch: lastSeen and the memory together, its version one on.
    expect((await record()).seenVersion).toBe(before + 1);
    expect((await record()).lastSeen).toBe(at(3, 0).timestamp);
    expect(await kept()).toEqual([10, 11, 10, 12]);
    // Two batches at once: whichever is written second runs its checks on the memory the first left.
    await Promise.all([ingest(device, [at(4, 13), at(5, 12)]), ingest(device, [at(6, 11), at(7, 12)])]);
    expect(await kept()).toEqual([13, 12, 11, 12]);
    // A batch older than the record's newest leaves lastSeen where it was, and joins the memory where it falls.
    await ingest(device, [at(1.5, 11)]);
    expect((await record()).lastSeen).toBe(at(7, 0).timestamp);
    expect(await kept()).toEqual([13, 12, 11, 12]);
    // The next batch's spike is one against the memory.
    await ingest(device, [at(8, 400)]);
    const answered = await readAll(device, BASE, at(8, 0).timestamp);
    expect(answered.at(-1)!.reasons).toEqual({ pm2_5: ['step_too_high'] });
    expect(answered.filter((r) => r.reasons)).toHaveLength(1);
  });
});

describe('calibrations', () => {
  let device: TestDevice;
  /** Six hours of readings every 10 minutes: PM2.5 rising 1 a reading, humidity 40. */
  const readings = Array.from({ length: 36 }, (_, i) => ({
    timestamp: BASE + i * 10 * MINUTE + 5_000,
    values: { pm2_5: 10 + i, humidity: 40 },
  }));
  const last = readings.at(-1)!.timestamp;

  beforeAll(async () => {
    device = await freshDevice();
    await setTier(device.id, 'tier1');
    await ingest(device, readings);
  });

  it('applies each version where its period holds, the newest winning, never changing a raw value', async () => {
    const owner = quality(device.ownerToken);
    const v1 = await owner.addCalibration({
      params: { id: device.id },
      body: {
        measurement: 'pm2_5',
        formula: { kind: 'linear', a: 2, b: 0 },
        effectiveFrom: BASE + HOUR_MS,
        note: 'Factory offset',
        source: 'collocation with reference monitor X, R² 0.93',
      },
    });
    const v2 = await owner.addCalibration({
      params: { id: device.id },
      body: {
        measurement: 'pm2_5',
        formula: EPA_PURPLEAIR_PRESET.formula,
        effectiveFrom: BASE + 3 * HOUR_MS,
        effectiveTo: BASE + 4 * HOUR_MS,
        note: 'EPA correction for the smoke days',
      },
    });
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect(v1).toMatchObject({
      createdBy: subOfToken(device.ownerToken),
      source: 'collocation with reference monitor X, R² 0.93',
    });

    const answered = await readAll(device, BASE, last, { values: 'both' });
    const at = (hours: number) => answered.find((r) => r.timestamp >= BASE + hours * HOUR_MS)!;
    // Before the first version: raw, no version.
    expect(answered[0]).toMatchObject({ values: { pm2_5: 10 }, raw: { pm2_5: 10 } });
    expect(answered[0]!.calibration).toBeUndefined();
    expect(at(1)).toMatchObject({ values: { pm2_5: 32 }, raw: { pm2_5: 16 }, calibration: { pm2_5: 1 } });
    expect(at(3).values.pm2_5).toBeCloseTo(0.52 * 28 - 0.086 * 40 + 5.75, 6);
    expect(at(3).calibration).toEqual({ pm2_5: 2 });
    // After v2's period, v1 holds again; humidity has no calibration.
    expect(at(5)).toMatchObject({ values: { pm2_5: 80, humidity: 40 }, calibration: { pm2_5: 1 } });
    // values=raw answers what the device sent; the stored items hold exactly that, whatever the calibrations.
    const raw = await readAll(device, BASE, last, { values: 'raw' });
    expect(raw.map((r) => r.values)).toEqual(readings.map((r) => r.values));
    expect(raw.every((r) => r.calibration === undefined)).toBe(true);
    expect((await storedReadings(device.id, BASE)).map((r) => r.v)).toEqual(readings.map((r) => r.values));

    // The series (raw readings at this range) answers corrected by default, raw beside with values=both.
    const both = await quality(device.ownerToken).series({
      params: { id: device.id },
      query: { from: BASE, to: last, width: 36, measurements: 'pm2_5', values: 'both' } as never,
    });
    const pm = both.series.pm2_5!;
    const i = both.t.findIndex((t) => t >= BASE + 5 * HOUR_MS);
    expect([pm.mean[i], pm.raw!.mean[i], pm.calibration![i]]).toEqual([80, 40, 1]);

    const listed = await quality()
      .listCalibrations({ params: { id: device.id } })
      .catch(() => undefined);
    // A private device's calibrations are its readers' only.
    expect(listed).toBeUndefined();
    const mine = await owner.listCalibrations({ params: { id: device.id } });
    expect(mine.items.map((c) => [c.version, c.note])).toEqual([
      [2, 'EPA correction for the smoke days'],
      [1, 'Factory offset'],
    ]);
  });

  it('answers the public API (/v1) as the app, corrected by default', async () => {
    const { key } = await quality(device.ownerToken).createApiKey({ body: { name: 'quality' } });
    const response = await fetch(
      `${areaUrl('sensor-data')}/v1/devices/${device.id}/readings?from=${BASE}&to=${last}&limit=500&values=both`,
      { headers: { 'x-api-key': key } },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { items: Reading[] };
    expect(body.items).toEqual((await readAll(device, BASE, last, { values: 'both' })).reverse());
  });

  it('refuses a bad formula with a 400 naming the field', async () => {
    const post = (body: unknown) =>
      fetch(`${areaUrl('sensor-data')}/devices/${device.id}/calibrations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${device.ownerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const base = { measurement: 'pm2_5', effectiveFrom: BASE, note: 'x' };
    const issuesOf = async (body: unknown) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { issues: { path: string }[] }).issues.map((i) => i.path);
    };
    expect(
      await issuesOf({
        ...base,
        formula: {
          kind: 'piecewise',
          points: [
            { raw: 0, corrected: 0 },
            { raw: 0, corrected: 5 },
          ],
        },
      }),
    ).toEqual(['body.formula.points.1.raw']);
    expect(await issuesOf({ ...base, formula: { kind: 'linear', a: 'NaN', b: 0 } })).toEqual(['body.formula.a']);
    expect(await issuesOf({ ...base, formula: { kind: 'linear', a: null, b: 0 } })).toEqual(['body.formula.a']);
    expect(await issuesOf({ ...base, measurement: 'pm3', formula: { kind: 'linear', a: 1, b: 0 } })).toEqual([
      'body.measurement',
    ]);
    expect(
      await issuesOf({
        ...base,
        formula: { kind: 'linear-multi', intercept: 0, terms: [{ measurement: 'soil', coefficient: 1 }] },
      }),
    ).toEqual(['body.formula.terms.0.measurement']);
  });

  it('names the versions and exclusions a dataset was read through, and a later change alters nothing frozen', async () => {
    const owner = quality(device.ownerToken);
    const exclusion = await owner.addExclusion({
      params: { id: device.id },
      body: { from: readings[2]!.timestamp, to: readings[3]!.timestamp, reason: 'Sensor cleaned' },
    });
    const dataset = await frozenDataset(device, 'Calibrated morning', last, true);
    expect(dataset.status).toBe('frozen');
    const manifestBytes = await fetchDatasetFile(manifestFile(dataset), device.ownerToken);
    const manifest = JSON.parse(manifestBytes.toString('utf8'));
    expect(manifest.query).toMatchObject({ values: 'both', qualityColumns: true, quality: 'all' });
    expect(
      manifest.devices[0].calibrations.map((c: { measurement: string; version: number }) => [c.measurement, c.version]),
    ).toEqual([
      ['pm2_5', 1],
      ['pm2_5', 2],
    ]);
    expect(manifest.devices[0].exclusions).toEqual([{ id: exclusion.id, from: exclusion.from, to: exclusion.to }]);
    const csvFile = dataset.files.find((f) => f.name === `${device.id}.csv`)!;
    const csv = (await fetchDatasetFile(csvFile, device.ownerToken)).toString('utf8').trimEnd().split('\r\n');
    expect(csv[0]).toBe(
      'timestamp,iso_time,pm2_5 (µg/m³),pm2_5_raw (µg/m³),pm2_5_quality,humidity (%),humidity_raw (%),humidity_quality',
    );
    // The two excluded readings are gone; the first row is raw (before v1), with each value's quality.
    expect(csv).toHaveLength(1 + 34);
    expect(csv[1]!.split(',').slice(2)).toEqual(['10', '10', 'good', '40', '40', 'good']);

    // A new version afterwards: the frozen dataset and its files say what they said.
    await owner.addCalibration({
      params: { id: device.id },
      body: { measurement: 'pm2_5', formula: { kind: 'linear', a: 1, b: 0 }, effectiveFrom: BASE, note: 'Reset' },
    });
    const again = await apiAs('datasets', device.ownerToken).getDataset({ params: { datasetId: dataset.id } });
    expect(again.devices).toEqual(dataset.devices);
    expect(sha256(await fetchDatasetFile(manifestFile(again), device.ownerToken))).toBe(manifestFile(dataset).sha256);
  });
});

describe('ending a calibration (decision 103)', () => {
  let device: TestDevice;
  /** Six hours of readings every 10 minutes from BASE: PM2.5 10, 11, 12 over and over (each hour's mean 11). */
  const readings = Array.from({ length: 36 }, (_, i) => ({
    timestamp: BASE + i * 10 * MINUTE + 5_000,
    values: { pm2_5: 10 + (i % 3), humidity: 40 },
  }));
  const last = readings.at(-1)!.timestamp;
  const endAt = BASE + 3 * HOUR_MS;
  const month = new Date(BASE).toISOString().slice(0, 7);
  const hours = [0, 1, 2, 3, 4, 5].map((h) => BASE + h * HOUR_MS);

  beforeAll(async () => {
    device = await freshDevice();
    await setTier(device.id, 'tier1');
    await ingest(device, readings);
  });

  const owner = () => quality(device.ownerToken);
  const idle = () =>
    eventually(async () => (await owner().reprocessing({ params: { id: device.id } })).status === 'idle', 30_000);
  /** Each of the six hours' roll-up as the worker stored it: its PM2.5 mean and the calibration version it used. */
  const hourRollups = async () => {
    const items = await storedRollups(device.id, 'hour');
    return hours.map((h) => {
      const item = items.find((r) => r.ts === h);
      return item && [item.m.pm2_5!.s / item.m.pm2_5!.n, item.cal?.pm2_5 ?? null];
    });
  };
  /** The hours' PM2.5 means in the month's chart object. */
  const chartMeans = async () => {
    const object = await chartObject(device.id, 'hour', month);
    return hours.map((h) => (object ? object.m.pm2_5!.mean[object.t.indexOf(h)] : undefined));
  };
  const post = (body: unknown) =>
    fetch(`${areaUrl('sensor-data')}/devices/${device.id}/calibrations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.ownerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers later readings as sent with no version, keeps earlier ones on theirs, reprocesses the roll-ups and leaves a frozen dataset as it was', async () => {
    await owner().addCalibration({
      params: { id: device.id },
      body: { measurement: 'pm2_5', formula: { kind: 'linear', a: 2, b: 0 }, effectiveFrom: BASE, note: 'Factory' },
    });
    await idle();
    const calibrated = [22, 22, 22, 22, 22, 22];
    await eventually(async () => JSON.stringify(await chartMeans()) === JSON.stringify(calibrated), 30_000);
    expect(await hourRollups()).toEqual(calibrated.map((m) => [m, 1]));

    // A dataset frozen before the end: its files keep the calibrated numbers and name version 1.
    const dataset = await frozenDataset(device, 'Before the end', last, false);
    expect(dataset.status).toBe('frozen');
    const csvFile = dataset.files.find((f) => f.name === `${device.id}.csv`)!;
    const csvBefore = await fetchDatasetFile(csvFile, device.ownerToken);
    const manifestBefore = JSON.parse((await fetchDatasetFile(manifestFile(dataset), device.ownerToken)).toString());
    expect(manifestBefore.devices[0].calibrations.map((c: { version: number }) => c.version)).toEqual([1]);

    // The end: a version of kind none, from 3 hours in.
    const response = await post({
      measurement: 'pm2_5',
      formula: { kind: 'none' },
      effectiveFrom: endAt,
      note: 'Sensor replaced: no calibration yet',
    });
    expect(response.status).toBe(201);
    const ended = (await response.json()) as { version: number; formula: unknown; createdBy: string };
    expect(ended).toMatchObject({ version: 2, formula: { kind: 'none' }, createdBy: subOfToken(device.ownerToken) });

    // Readers at once (raw readings through the profile): before the end corrected by version 1, from it as sent.
    const answered = await readAll(device, BASE, last, { values: 'both' });
    const before = answered.filter((r) => r.timestamp < endAt);
    const after = answered.filter((r) => r.timestamp >= endAt);
    expect([before.length, after.length]).toEqual([18, 18]);
    expect(before.every((r) => r.calibration?.pm2_5 === 1 && r.values.pm2_5 === 2 * r.raw!.pm2_5!)).toBe(true);
    expect(after.every((r) => r.calibration === undefined && r.values.pm2_5 === r.raw!.pm2_5)).toBe(true);
    expect((await storedReadings(device.id, BASE)).map((r) => r.v)).toEqual(readings.map((r) => r.values));

    // The roll-ups and the chart object of the range are computed again: the end's hours raw, with no version.
    await idle();
    const afterEnd = [22, 22, 22, 11, 11, 11];
    await eventually(async () => JSON.stringify(await chartMeans()) === JSON.stringify(afterEnd), 30_000);
    expect(await hourRollups()).toEqual([
      [22, 1],
      [22, 1],
      [22, 1],
      [11, null],
      [11, null],
      [11, null],
    ]);

    // The history keeps both, the end with who, when and its note.
    const history = await owner().listCalibrations({ params: { id: device.id } });
    expect(history.items.map((c) => [c.version, c.formula.kind, c.note])).toEqual([
      [2, 'none', 'Sensor replaced: no calibration yet'],
      [1, 'linear', 'Factory'],
    ]);

    // The frozen dataset says what it said.
    const again = await apiAs('datasets', device.ownerToken).getDataset({ params: { datasetId: dataset.id } });
    expect(again.files).toEqual(dataset.files);
    expect(sha256(await fetchDatasetFile(csvFile, device.ownerToken))).toBe(sha256(csvBefore));
    expect(sha256(await fetchDatasetFile(manifestFile(again), device.ownerToken))).toBe(manifestFile(dataset).sha256);
  });

  it('refuses an end before the version starts, after an end, of an unknown measurement, or with fields, naming the field', async () => {
    const issuesOf = async (body: unknown) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { message: string; issues: { path: string }[] };
      return [answer.message, answer.issues.map((i) => i.path)] as const;
    };
    const end = { measurement: 'pm2_5', formula: { kind: 'none' }, note: 'End' };
    expect(await issuesOf({ ...end, effectiveFrom: BASE - HOUR_MS })).toEqual([
      `effectiveFrom (${new Date(BASE - HOUR_MS).toISOString()}) is before the calibration of pm2_5 starts (${new Date(BASE).toISOString()}): there is nothing to end then`,
      ['body.effectiveFrom'],
    ]);
    // Ended already from 3 hours in: nothing is in force to end after that.
    expect((await issuesOf({ ...end, effectiveFrom: endAt + HOUR_MS }))[1]).toEqual(['body.effectiveFrom']);
    expect((await issuesOf({ ...end, measurement: 'pm3', effectiveFrom: BASE }))[1]).toEqual(['body.measurement']);
    expect((await issuesOf({ ...end, formula: { kind: 'none', a: 1 }, effectiveFrom: BASE }))[1]).toEqual([
      'body.formula.a',
    ]);
    // Nothing of it was saved.
    expect((await owner().listCalibrations({ params: { id: device.id } })).items).toHaveLength(2);
  });
});

describe('exclusions leave every reader within 5 s, and come back when removed', () => {
  let device: TestDevice;
  let apiKey: string;
  const now = Math.floor(Date.now() / MINUTE) * MINUTE;
  /** Three days every 10 minutes, with a spike 30 hours ago. */
  const spikeAt = now - 30 * HOUR_MS;
  const readings = Array.from({ length: 3 * 144 }, (_, i) => {
    const timestamp = now - (3 * 144 - i) * 10 * MINUTE;
    return { timestamp, values: { pm2_5: timestamp === spikeAt ? 900 : 10 + (i % 4) } };
  });

  beforeAll(async () => {
    device = await freshDevice();
    await setTier(device.id, 'tier1');
    await ingest(device, readings);
    apiKey = (await quality(device.ownerToken).createApiKey({ body: { name: 'exclusions' } })).key;
    // Rolled up by the worker: the week's chart (hourly) shows the spike.
    await eventually(async () => (await hourMax()) === 900, 20_000);
  });

  const owner = () => quality(device.ownerToken);
  const hourMax = async () => {
    const series = await owner().series({ params: { id: device.id }, query: { from: now - 7 * DAY_MS, width: 400 } });
    const i = series.t.findIndex((t) => t <= spikeAt && spikeAt < t + series.bucketMs);
    return i < 0 ? undefined : series.series.pm2_5?.max[i];
  };
  const readerSees = {
    readings: async () =>
      (await readAll(device, spikeAt - HOUR_MS, spikeAt + HOUR_MS)).some((r) => r.values.pm2_5 === 900),
    rawSeries: async () => {
      const s = await owner().series({
        params: { id: device.id },
        query: { from: now - 2 * DAY_MS, to: now, width: 800 },
      });
      return s.resolution === 'minute' && (s.series.pm2_5?.max ?? []).includes(900);
    },
    weekChart: async () => (await hourMax()) === 900,
    api: async () => {
      const response = await fetch(
        `${areaUrl('sensor-data')}/v1/devices/${device.id}/readings?from=${spikeAt - HOUR_MS}&to=${spikeAt + HOUR_MS}`,
        { headers: { 'x-api-key': apiKey } },
      );
      return ((await response.json()) as { items: Reading[] }).items.some((r) => r.values.pm2_5 === 900);
    },
    csv: async () => {
      const job = await owner().createExport({
        params: { id: device.id },
        body: { from: spikeAt - HOUR_MS, to: spikeAt + HOUR_MS, format: 'csv' },
      });
      const done = await eventually(async () => {
        const j = await owner().getExport({ params: { exportId: job.id } });
        return j.status === 'done' ? j : undefined;
      }, 5_000);
      const { url } = await apiAs('api', device.ownerToken).aws({
        body: { action: 'getSignedS3Url', params: { bucket: done.file!.bucket, key: done.file!.key } },
      });
      return (await (await fetch(url)).text()).includes(',900');
    },
  };
  const everyReader = async () =>
    Object.fromEntries(await Promise.all(Object.entries(readerSees).map(async ([k, see]) => [k, await see()])));
  const ALL = (value: boolean) => Object.fromEntries(Object.keys(readerSees).map((k) => [k, value]));

  it('an exclusion of the spike empties it from readings, charts, the API and downloads; removing it brings it back', async () => {
    expect(await everyReader()).toEqual(ALL(true));
    const started = Date.now();
    const exclusion = await owner().addExclusion({
      params: { id: device.id },
      body: {
        from: spikeAt - MINUTE,
        to: spikeAt + MINUTE,
        measurements: ['pm2_5'],
        reason: 'Someone smoked under it',
      },
    });
    await eventually(
      async () => JSON.stringify(await everyReader()) === JSON.stringify(ALL(false)) || undefined,
      5_000,
    );
    expect(Date.now() - started).toBeLessThan(5_000 + 2_000);
    // The spike was its reading's only value: the reading is gone from every answer, the exclusion says why.
    const hole = (await readAll(device, spikeAt, spikeAt)).find((r) => r.timestamp === spikeAt);
    expect(hole).toBeUndefined();
    expect((await owner().listExclusions({ params: { id: device.id } })).items[0]).toMatchObject({
      id: exclusion.id,
      status: 'active',
      reason: 'Someone smoked under it',
    });

    const removedAt = Date.now();
    await owner().removeExclusion({ params: { id: device.id, exclusionId: exclusion.id } });
    await eventually(async () => JSON.stringify(await everyReader()) === JSON.stringify(ALL(true)) || undefined, 5_000);
    expect(Date.now() - removedAt).toBeLessThan(5_000 + 2_000);
    // Nothing was deleted, and the record says who removed it.
    expect((await storedReadings(device.id, spikeAt)).some((r) => r.ts === spikeAt && r.v.pm2_5 === 900)).toBe(true);
    expect((await owner().listExclusions({ params: { id: device.id } })).items[0]).toMatchObject({
      status: 'removed',
      removedBy: subOfToken(device.ownerToken),
    });
    await eventually(async () => (await owner().reprocessing({ params: { id: device.id } })).status === 'idle', 10_000);
  });
});

describe('who may calibrate and exclude', () => {
  it('the owner, an administrator, a campaign manager within the campaign’s window, and staff; not a user or a stranger', async () => {
    const device = await freshDevice();
    await ingest(device, [{ timestamp: BASE, values: { pm2_5: 5 } }]);
    const [administrator, user, manager, stranger] = await Promise.all(
      ['qa-admin', 'qa-user', 'qa-manager', 'qa-stranger'].map((prefix) => freshUser({ prefix })),
    );
    await seedRelation('device-administrator', device.id, administrator!.id);
    await seedRelation('device-user', device.id, user!.id);
    const campaignId = crypto.randomUUID();
    const window = { startsAt: BASE - DAY_MS, endsAt: BASE + DAY_MS };
    await documentClient().send(
      new PutCommand({
        TableName: stack().tables.campaigns!,
        Item: {
          id: campaignId,
          name: 'Quality survey',
          description: '',
          ...window,
          created: BASE,
          createdBy: manager!.id,
          updated: BASE,
        },
      }),
    );
    await seedRelation('campaign-device', campaignId, device.id);
    await seedRelation('campaign-manager', campaignId, manager!.id);
    const exclude = (token: string, from = BASE) =>
      quality(token).addExclusion({ params: { id: device.id }, body: { from, to: from + MINUTE, reason: 'test' } });

    expect((await exclude(device.ownerToken)).createdBy).toBe(subOfToken(device.ownerToken));
    expect((await exclude(administrator!.token)).createdBy).toBe(administrator!.id);
    expect((await exclude(manager!.token)).createdBy).toBe(manager!.id);
    const outside = await apiRejection(exclude(manager!.token, window.startsAt - HOUR_MS));
    expect([outside.status, outside.message]).toEqual([
      403,
      `A campaign manager may calibrate a device or exclude its data only within the campaign's window (${new Date(window.startsAt).toISOString()} to ${new Date(window.endsAt).toISOString()})`,
    ]);
    for (const token of [user!.token, stranger!.token]) expect((await apiRejection(exclude(token))).status).toBe(403);
    const staff = await freshUser({ prefix: 'qa-staff', groups: ['Employees'] });
    expect((await exclude(staff.token, BASE - 30 * DAY_MS)).createdBy).toBe(staff.id);

    // A campaign manager's calibration ends with the window.
    const calibration = await quality(manager!.token).addCalibration({
      params: { id: device.id },
      body: { measurement: 'pm2_5', formula: { kind: 'linear', a: 1.1, b: 0 }, effectiveFrom: BASE, note: 'Survey' },
    });
    expect(calibration.effectiveTo).toBe(window.endsAt);

    // The same for the campaign's devices at once: one id for all, removed together.
    const second = await freshDevice();
    await seedRelation('campaign-device', campaignId, second.id);
    const both = await quality(manager!.token).addCampaignExclusion({
      params: { id: campaignId },
      body: { from: BASE, to: BASE + MINUTE, reason: 'Calibration day' },
    });
    expect(both.items.map((e) => e.deviceId).sort()).toEqual([device.id, second.id].sort());
    expect(
      (
        await apiRejection(
          quality(user!.token).addCampaignExclusion({
            params: { id: campaignId },
            body: { from: BASE, to: BASE, reason: 'x' },
          }),
        )
      ).status,
    ).toBe(403);
    const listed = await quality(manager!.token).listCampaignExclusions({ params: { id: campaignId } });
    expect(listed.items.map((e) => e.id)).toEqual([both.id, both.id]);
    await quality(manager!.token).removeCampaignExclusion({ params: { id: campaignId, exclusionId: both.id } });
    const after = await quality(second.ownerToken).listExclusions({ params: { id: second.id } });
    expect(after.items.map((e) => [e.id, e.status, e.removedBy])).toEqual([[both.id, 'removed', manager!.id]]);
  });
});
