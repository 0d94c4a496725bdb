import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import type { ChartObject } from '../domain/ports';
import {
  chartObjectKey,
  createChartDataStore,
  DAY_MS,
  HOUR_MS,
  mergeChartObjects,
  periodRange,
  periodsBetween,
} from './chart-data-store';

const series = (values: (number | null)[]) => ({ min: values, max: values, mean: values, count: values });
const JAN31_23 = Date.UTC(2025, 0, 31, 23);
const FEB1_00 = Date.UTC(2025, 1, 1, 0);

const january: ChartObject = {
  deviceId: 'd',
  resolution: 'hour',
  period: '2025-01',
  t: [JAN31_23 - HOUR_MS, JAN31_23],
  m: { co2: series([400, 410]) },
};
const february: ChartObject = {
  deviceId: 'd',
  resolution: 'hour',
  period: '2025-02',
  t: [FEB1_00, FEB1_00 + HOUR_MS],
  m: { co2: series([420, 430]), pm2_5: series([5, null]) },
};

describe('chart-data periods', () => {
  it('names months for hour objects and years for day objects, with their exact ranges', () => {
    expect(periodsBetween('hour', Date.UTC(2024, 11, 31, 23, 59), Date.UTC(2025, 1, 1))).toEqual([
      '2024-12',
      '2025-01',
      '2025-02',
    ]);
    expect(periodsBetween('day', Date.UTC(2023, 5), Date.UTC(2025, 0))).toEqual(['2023', '2024', '2025']);
    expect(periodRange('2024-02')).toEqual({ from: Date.UTC(2024, 1, 1), to: Date.UTC(2024, 2, 1) - 1 });
    expect(periodRange('2024')).toEqual({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2025, 0, 1) - 1 });
    expect(chartObjectKey('d', 'day', '2024')).toBe('charts/d/day/2024.json');
  });
});

describe('mergeChartObjects', () => {
  it('joins objects in time order, keeps buckets overlapping the range and nulls a measurement an object lacks', () => {
    // From mid-hour: the bucket that started before `from` still overlaps it.
    const merged = mergeChartObjects([february, january], 'hour', JAN31_23 + 30 * 60_000, FEB1_00);
    expect(merged).toEqual({
      t: [JAN31_23, FEB1_00],
      m: { co2: series([410, 420]), pm2_5: series([null, 5]) },
    });
  });

  it('gives empty columns when nothing is in range', () => {
    expect(mergeChartObjects([january], 'day', FEB1_00 + DAY_MS, FEB1_00 + 2 * DAY_MS)).toEqual({ t: [], m: {} });
  });
});

describe('createChartDataStore', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());

  it('reads each overlapping period object and skips periods that have none', async () => {
    // The SDK's stream mixin, as far as the store uses it.
    const body = (object: ChartObject) => ({ transformToString: async () => JSON.stringify(object) }) as never;
    s3.on(GetObjectCommand, { Key: 'charts/d/hour/2025-01.json' }).resolves({ Body: body(january) });
    s3.on(GetObjectCommand, { Key: 'charts/d/hour/2025-02.json' }).resolves({ Body: body(february) });
    s3.on(GetObjectCommand, { Key: 'charts/d/hour/2024-12.json' }).rejects(
      Object.assign(new Error('missing'), { name: 'NoSuchKey' }),
    );
    const store = createChartDataStore({ s3: new S3Client({ region: 'eu-west-1' }), bucket: 'charts' });
    const merged = await store.readChartObjects('d', 'hour', Date.UTC(2024, 11, 20), FEB1_00 + HOUR_MS);
    expect(merged.t).toEqual([...january.t, ...february.t]);
    expect(s3.commandCalls(GetObjectCommand).map((c) => c.args[0].input.Key)).toEqual([
      'charts/d/hour/2024-12.json',
      'charts/d/hour/2025-01.json',
      'charts/d/hour/2025-02.json',
    ]);
  });

  it('fails loudly on an S3 error other than a missing object', async () => {
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('denied'), { name: 'AccessDenied' }));
    const store = createChartDataStore({ s3: new S3Client({ region: 'eu-west-1' }), bucket: 'charts' });
    await expect(store.read('d', 'day', '2025')).rejects.toThrow('denied');
  });

  it('writes a whole period object as JSON under its key', async () => {
    s3.on(PutObjectCommand).resolves({});
    const store = createChartDataStore({ s3: new S3Client({ region: 'eu-west-1' }), bucket: 'charts' });
    await store.write(february);
    const input = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      Bucket: 'charts',
      Key: 'charts/d/hour/2025-02.json',
      ContentType: 'application/json',
    });
    expect(JSON.parse(input.Body as string)).toEqual(february);
  });
});
