import { jest } from '@jest/globals';
import type { Context, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { APP_METRICS } from '../../shared/operations/metrics';
import { iotRule } from './iot/iot-rule';
import { lambdaCounters } from './metrics';
import { sqsWorker } from './queue/sqs-worker';

// Read when the metrics are first used, which is inside the first invocation below.
const saved = { ...process.env };
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_METRICS_NAMESPACE = 'device-data/test';
// What Lambda sets on an instance it starts for a request; Powertools counts a cold start only then.
process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
afterAll(() => {
  process.env = saved;
});

const emfLines = (spy: jest.SpiedFunction<typeof console.log>) =>
  spy.mock.calls
    .map(([line]) => JSON.parse(String(line)) as Record<string, unknown> & { _aws?: { CloudWatchMetrics: unknown[] } })
    .filter((line) => line._aws);

describe('the telemetry every chain starts with', () => {
  const handler = sqsWorker(
    'test',
    z.object({ n: z.number() }),
    async ({ n }) => {
      lambdaCounters.count(APP_METRICS.readingsAccepted, n);
      if (n < 0) throw new Error('negative');
    },
    { deps: () => ({}) },
  );
  const record = (messageId: string, n: number) =>
    ({ messageId, body: JSON.stringify({ n }), attributes: {} }) as SQSEvent['Records'][number];
  const context = { functionName: 'device-data-worker', awsRequestId: 'invocation-1' } as Context;
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);

  it('writes what an invocation counted as one EMF line in the environment namespace, and a cold start once', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await handler({ Records: [record('a', 2), record('b', 3)] }, context);
    const first = emfLines(log);
    log.mockClear();
    await handler({ Records: [record('c', 4)] }, context);
    const second = emfLines(log);
    log.mockRestore();

    const counted = (lines: ReturnType<typeof emfLines>) => lines.find((line) => APP_METRICS.readingsAccepted in line);
    expect(counted(first)).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          {
            Namespace: 'device-data/test',
            Dimensions: [['service']],
            Metrics: [{ Name: APP_METRICS.readingsAccepted, Unit: 'Count' }],
          },
        ],
      },
      service: 'device-data',
      [APP_METRICS.readingsAccepted]: [2, 3],
    });
    expect(first.filter((line) => 'ColdStart' in line)).toHaveLength(1);
    expect(counted(second)).toMatchObject({ [APP_METRICS.readingsAccepted]: 4 });
    expect(second.filter((line) => 'ColdStart' in line)).toHaveLength(0);
  });

  it('writes the counts of an invocation that failed, as the chain rethrows its error', async () => {
    const rule = iotRule(
      'TestRule',
      async () => {
        lambdaCounters.count(APP_METRICS.readingsRefused, 5);
        throw new Error('store down');
      },
      { deps: () => ({}) },
    );
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await expect(rule({ topic: 'devices/d-1/readings' }, context)).rejects.toThrow('store down');
    const lines = emfLines(log);
    log.mockRestore();
    expect(lines.find((line) => APP_METRICS.readingsRefused in line)).toMatchObject({
      [APP_METRICS.readingsRefused]: 5,
    });
  });
});
