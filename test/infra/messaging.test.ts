import { QUEUES } from '../../infra/definitions/storage';
import { mentions, resourcesOfType, synthesizedTemplates } from './synth';

const templates = synthesizedTemplates('prod');
const queues = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::Queue'));
const named = (name: string) => queues.find((q) => q.Properties.QueueName === name)!;

describe.each(Object.entries(QUEUES))('the %s queue', (_key, queue) => {
  it('keeps messages 14 days, the most SQS allows, in the queue and its dead-letter queue', () => {
    expect(named(queue.name('prod')).Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(named(queue.deadLetterName('prod')).Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('moves a message that keeps failing to the dead-letter queue, encrypted at rest', () => {
    const resource = named(queue.name('prod'));
    expect(JSON.stringify(resource.Properties.RedrivePolicy)).toContain(`"maxReceiveCount":${queue.maxReceiveCount}`);
    expect(resource.Properties.SqsManagedSseEnabled).toBe(true);
    expect(named(queue.deadLetterName('prod')).Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('keeps a message from a second consumer for the visibility timeout the definition sets', () => {
    expect(named(queue.name('prod')).Properties.VisibilityTimeout).toBe(queue.visibilityTimeoutSeconds);
  });

  it('refuses requests without TLS, on the queue and its dead-letter queue', () => {
    for (const name of [queue.name('prod'), queue.deadLetterName('prod')]) {
      const [id] = Object.entries(resourcesOfType(templates.messaging, 'AWS::SQS::Queue')).find(
        ([, q]) => q.Properties.QueueName === name,
      )!;
      const statements = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::QueuePolicy'))
        .filter((p) => mentions(p.Properties.Queues, id))
        .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });
});

describe('the sensor-data queue', () => {
  it('is FIFO with its limits per message group (a device), and so is its dead-letter queue', () => {
    expect(named(QUEUES.sensorData.name('prod')).Properties).toMatchObject({
      FifoQueue: true,
      FifoThroughputLimit: 'perMessageGroupId',
      DeduplicationScope: 'messageGroup',
    });
    expect(named(QUEUES.sensorData.deadLetterName('prod')).Properties.FifoQueue).toBe(true);
    expect(named(QUEUES.jobs.name('prod')).Properties.FifoQueue).toBeUndefined();
  });
});
