import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { startFauxqsEmulator } from './fauxqs';

describe('the fauxqs emulator across a restart', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fauxqs-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('puts waiting FIFO messages back with their groups, in order, and plain ones as they were', async () => {
    const start = async () => {
      const emulator = await startFauxqsEmulator({ dataDir, port: 0, region: 'us-west-2' });
      const fifo = emulator.createQueue('work.fifo', { FifoQueue: 'true' }).queueUrl;
      const plain = emulator.createQueue('plain').queueUrl;
      return { emulator, fifo, plain };
    };

    const first = await start();
    for (const [body, group] of [
      ['a1', 'device:a'],
      ['b1', 'device:b'],
      ['a2', 'device:a'],
    ] as const) {
      await first.emulator.sqs.send(
        new SendMessageCommand({
          QueueUrl: first.fifo,
          MessageBody: body,
          MessageGroupId: group,
          MessageDeduplicationId: body,
        }),
      );
    }
    await first.emulator.sqs.send(new SendMessageCommand({ QueueUrl: first.plain, MessageBody: 'p1' }));
    await first.emulator.stop();

    const second = await start();
    try {
      await second.emulator.restore();
      const received: [string | undefined, string | undefined][] = [];
      for (;;) {
        const { Messages = [] } = await second.emulator.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: second.fifo,
            MaxNumberOfMessages: 10,
            MessageSystemAttributeNames: ['MessageGroupId'],
          }),
        );
        if (!Messages.length) break;
        for (const m of Messages) {
          received.push([m.Body, m.Attributes?.MessageGroupId]);
          await second.emulator.sqs.send(
            new DeleteMessageCommand({ QueueUrl: second.fifo, ReceiptHandle: m.ReceiptHandle }),
          );
        }
      }
      expect(received.filter(([, group]) => group === 'device:a')).toEqual([
        ['a1', 'device:a'],
        ['a2', 'device:a'],
      ]);
      expect(received.filter(([, group]) => group === 'device:b')).toEqual([['b1', 'device:b']]);
      const plain = await second.emulator.sqs.send(new ReceiveMessageCommand({ QueueUrl: second.plain }));
      expect(plain.Messages?.map((m) => m.Body)).toEqual(['p1']);
    } finally {
      await second.emulator.stop();
    }
  });
});
