import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { jest } from '@jest/globals';
import type { Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import * as z from 'zod';
import { logger } from '../logger';
import { lambdaTelemetry } from '../telemetry';
import { CORRELATION_ID_ATTRIBUTE, createQueueSender } from './queue-sender';
import { NotDueYet, type Postpone, sqsWorker } from './sqs-worker';

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
  const info = jest.spyOn(console, 'info').mockImplementation(() => undefined);

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

  it("logs each record under the correlation id its sender attached, else under the message's own id", async () => {
    info.mockClear();
    await handler(
      {
        Records: [
          {
            ...record('m-1', '{"n":7}'),
            messageAttributes: {
              [CORRELATION_ID_ATTRIBUTE]: { stringValue: 'req-42', dataType: 'String' },
            } as SQSEvent['Records'][number]['messageAttributes'],
          },
          record('m-2', '{"n":8}'),
        ],
      },
      { functionName: 'worker', awsRequestId: 'invocation-1' } as Context,
    );
    const lines = info.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(lines.map(({ messageId, correlation_id }) => [messageId, correlation_id])).toEqual([
      ['m-1', 'req-42'],
      ['m-2', 'm-2'],
    ]);
    expect(lines[0]).toMatchObject({
      service: 'device-data',
      function_name: 'worker',
      cold_start: expect.any(Boolean),
    });
  });
});

describe('a message not due yet', () => {
  const postponed: [string, number][] = [];
  let postpone: Postpone = async (receiptHandle, seconds) => {
    postponed.push([receiptHandle, seconds]);
  };
  const worked: number[] = [];
  const handler = sqsWorker(
    'test',
    z.object({ due: z.number() }),
    async ({ due }) => {
      if (due > Date.now()) throw new NotDueYet(due);
      worked.push(due);
    },
    { deps: () => ({}), postpone: () => (handle, seconds) => postpone(handle, seconds) },
  );
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  const early = (id: string, due: number, group?: string) => ({
    ...record(id, JSON.stringify({ due }), group),
    receiptHandle: `receipt-${id}`,
  });

  beforeEach(() => {
    postponed.length = 0;
    worked.length = 0;
    error.mockClear();
  });

  it('is put out of sight until it is due and reported failed, with its group after it; nothing is logged as an error', async () => {
    const due = Date.now() + 90_500;
    const result = await handler(
      { Records: [early('a', due, 'device:1'), early('b', 1, 'device:1'), early('c', 2, 'device:2')] },
      {} as Context,
    );
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['a', 'b']);
    expect(postponed).toEqual([['receipt-a', 91]]);
    expect(worked).toEqual([2]);
    expect(error).not.toHaveBeenCalled();
  });

  it('a message that could not be put back still fails, to come again after the visibility timeout', async () => {
    postpone = async () => {
      throw new Error('queue down');
    };
    const result = await handler({ Records: [early('a', Date.now() + 60_000)] }, {} as Context);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['a']);
    expect(worked).toEqual([]);
  });
});

describe('the queue sender', () => {
  const sqs = mockClient(SQSClient);
  afterEach(() => sqs.reset());

  it("hands on the correlation id of the work under way, so the worker's lines carry the request's id", async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const sender = createQueueSender<{ kind: string }>({
      sqs: new SQSClient({ region: 'us-west-2' }),
      queueUrl: 'https://sqs.us-west-2.amazonaws.com/1/jobs',
      queueName: 'jobs',
    });
    const telemetry = lambdaTelemetry<{ id: string }, void>((event) => event.id);
    await telemetry.before!({ event: { id: 'req-7' }, context: {} as Context } as never);
    await sender.send([{ kind: 'job' }]);
    expect(logger.getCorrelationId()).toBe('req-7');
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries![0]!.MessageAttributes).toEqual({
      kind: { DataType: 'String', StringValue: 'job' },
      [CORRELATION_ID_ATTRIBUTE]: { DataType: 'String', StringValue: 'req-7' },
    });
  });
});
