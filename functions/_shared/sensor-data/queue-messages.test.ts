import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { createSensorDataSender, type SensorDataMessage } from './queue-messages';

describe('the sensor-data sender', () => {
  const sqs = mockClient(SQSClient);
  const sender = createSensorDataSender({
    sqs: new SQSClient({ region: 'us-west-2' }),
    queueUrl: 'http://localhost/000000000000/sensor-data-dev.fifo',
  });

  beforeEach(() => {
    sqs.reset();
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  });

  afterAll(() => sqs.restore());

  it('groups roll-ups by device and each export on its own, with a fresh deduplication id per message', async () => {
    const rollup: SensorDataMessage = { kind: 'rollup', deviceId: 'd1', hours: [3_600_000] };
    await sender.send([
      rollup,
      rollup,
      { kind: 'rollup', deviceId: 'd2', hours: [0] },
      { kind: 'export', exportId: 'x1' },
    ]);
    const entries = sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input.Entries!;
    expect(entries.map((e) => e.MessageGroupId)).toEqual(['device:d1', 'device:d1', 'device:d2', 'export:x1']);
    // Equal bodies sent twice are two pieces of work: FIFO deduplication must not merge them.
    expect(new Set(entries.map((e) => e.MessageDeduplicationId)).size).toBe(4);
  });
});
