import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import type { DomainEvent } from '../../../shared/contracts/events';
import { createEventPublisher } from './event-publisher';

const queueUrl = 'http://localhost:4566/000000000000/jobs';

const event = (n: number): DomainEvent => ({
  kind: 'relation.changed',
  eventId: `e${n}`,
  change: n % 2 ? 'removed' : 'added',
  relation: {
    id: `device-owner#d${n}#u${n}`,
    type: 'device-owner',
    referrerId: `d${n}`,
    referentId: `u${n}`,
    created: 1,
  },
  actorId: 'staff-1',
  at: 1_000 + n,
});

const events = (count: number) => Array.from({ length: count }, (_, n) => event(n));

describe('the event publisher', () => {
  const sqs = mockClient(SQSClient);
  const publisher = createEventPublisher({ sqs: new SQSClient({ region: 'us-west-2' }), queueUrl });
  const sent = () => sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);

  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  });

  afterAll(() => sqs.restore());

  it('sends each event as one JSON message to the queue, with its kind as a message attribute', async () => {
    await publisher.publish([event(0), event(1)]);
    expect(sent()).toHaveLength(1);
    const batch = sent()[0]!;
    expect(batch.QueueUrl).toBe(queueUrl);
    expect(batch.Entries!.map((entry) => JSON.parse(entry.MessageBody!))).toEqual([event(0), event(1)]);
    for (const entry of batch.Entries!) {
      expect(entry.MessageAttributes).toEqual({ kind: { DataType: 'String', StringValue: 'relation.changed' } });
    }
    // SQS refuses a batch whose entry ids repeat.
    expect(new Set(batch.Entries!.map((entry) => entry.Id)).size).toBe(2);
  });

  it.each([
    [10, [10]],
    [11, [10, 1]],
    [25, [10, 10, 5]],
  ])('sends %i events in batches of at most ten: %j', async (count, sizes) => {
    const all = events(count);
    await publisher.publish(all);
    expect(sent().map((batch) => batch.Entries!.length)).toEqual(sizes);
    // Every event exactly once, in order.
    expect(sent().flatMap((batch) => batch.Entries!.map((entry) => JSON.parse(entry.MessageBody!)))).toEqual(all);
  });

  it('sends nothing for no events', async () => {
    await publisher.publish([]);
    expect(sent()).toEqual([]);
  });

  it('throws when the queue refuses any entry, with its reason', async () => {
    sqs.on(SendMessageBatchCommand).resolves({
      Successful: [{ Id: '0', MessageId: 'm0', MD5OfMessageBody: 'x' }],
      Failed: [{ Id: '1', SenderFault: false, Code: 'InternalError', Message: 'try again' }],
    });
    await expect(publisher.publish([event(0), event(1)])).rejects.toThrow(
      'The jobs queue refused 1 message(s): try again',
    );
  });

  it('stops at the first refused batch', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Failed: [{ Id: '3', SenderFault: true, Code: 'x', Message: 'bad' }] })
      .resolves({ Successful: [] });
    await expect(publisher.publish(events(15))).rejects.toThrow('bad');
    expect(sent()).toHaveLength(1);
  });

  it('passes a failure of the call itself on', async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('connection reset'));
    await expect(publisher.publish([event(0)])).rejects.toThrow('connection reset');
  });
});
