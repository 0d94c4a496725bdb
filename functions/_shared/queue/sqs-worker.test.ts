import { jest } from '@jest/globals';
import type { Context, SQSEvent } from 'aws-lambda';
import { z } from 'zod';
import { sqsWorker } from './sqs-worker';

const record = (messageId: string, body: string) =>
  ({ messageId, body, attributes: {} }) as SQSEvent['Records'][number];

describe('the SQS worker chain', () => {
  const seen: number[] = [];
  const handler = sqsWorker(
    'test',
    z.object({ n: z.number() }),
    async ({ n }) => {
      if (n < 0) throw new Error('negative');
      seen.push(n);
    },
    { deps: () => ({}) },
  );
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'log').mockImplementation(() => undefined);

  it('reports only the records that failed: bad JSON, a wrong shape and a failing work', async () => {
    const result = await handler(
      {
        Records: [
          record('a', '{"n":1}'),
          record('b', 'not json'),
          record('c', '{"n":"x"}'),
          record('d', '{"n":-1}'),
          record('e', '{"n":2}'),
        ],
      },
      {} as Context,
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['b', 'c', 'd']);
    expect(seen).toEqual([1, 2]);
  });
});
