import { QUEUES } from '../../infra/definitions/storage';
import { resourcesOfType, synthesize } from './synth';

const { templates } = synthesize('prod');
const queues = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::Queue'));
const named = (name: string) => queues.find((q) => q.Properties.QueueName === name)!;

describe('the jobs queue', () => {
  const jobs = QUEUES.jobs;

  it('keeps messages 14 days, the most SQS allows, in the queue and its dead-letter queue', () => {
    expect(named(jobs.name('prod')).Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    expect(named(jobs.deadLetterName('prod')).Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('moves a message that keeps failing to the dead-letter queue, encrypted at rest', () => {
    const queue = named(jobs.name('prod'));
    expect(JSON.stringify(queue.Properties.RedrivePolicy)).toContain(`"maxReceiveCount":${jobs.maxReceiveCount}`);
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });
});
