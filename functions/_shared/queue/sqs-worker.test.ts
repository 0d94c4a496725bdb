import { jest } from '@jest/globals';
import type { Context, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { sqsWorker } from './sqs-worker';

const record = (messageId: string, body: string, MessageGroupId?: string) =>
  ({ messageId, body, attributes: MessageGroupId ? { MessageGroupId } : {} }) as SQSEvent['Records'][number];

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

  it('on a FIFO queue, fails the rest of a failed group unworked and works the other groups', async () => {
    seen.length = 0;
    const result = await handler(
      {
        Records: [
          record('a', '{"n":1}', 'device:1'),
          record('b', '{"n":-1}', 'device:1'),
          record('c', '{"n":3}', 'device:2'),
          record('d', '{"n":4}', 'device:1'),
          record('e', '{"n":5}', 'device:2'),
        ],
      },
      {} as Context,
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['b', 'd']);
    expect(seen).toEqual([1, 3, 5]);
  });
});
