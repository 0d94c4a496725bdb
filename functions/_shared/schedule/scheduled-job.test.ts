import { jest } from '@jest/globals';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { scheduledJob } from './scheduled-job';

const event = (time: string): ScheduledEvent => ({
  id: 'event-1',
  version: '0',
  account: '123456789012',
  time,
  region: 'us-west-2',
  resources: ['arn:aws:events:us-west-2:123456789012:rule/job'],
  source: 'aws.events',
  'detail-type': 'Scheduled Event',
  detail: {},
});

const context = {} as Context;

beforeEach(() => {
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('scheduledJob', () => {
  it("runs the job with the event's time as now, building the dependencies once", async () => {
    const deps = jest.fn(() => ({ name: 'deps' }));
    const seen: number[] = [];
    const handler = scheduledJob(
      'TestJob',
      async ({ now }, d: { name: string }) => {
        seen.push(now);
        return { ok: d.name };
      },
      { deps },
    );
    await expect(handler(event('2030-01-02T03:04:05Z'), context)).resolves.toEqual({ ok: 'deps' });
    await handler(event('2030-01-02T04:04:05Z'), context);
    expect(seen).toEqual([Date.parse('2030-01-02T03:04:05Z'), Date.parse('2030-01-02T04:04:05Z')]);
    expect(deps).toHaveBeenCalledTimes(1);
  });

  it('refuses what is not a scheduled event, and logs and rethrows a failure', async () => {
    const handler = scheduledJob(
      'TestJob',
      async () => {
        throw new Error('boom');
      },
      { deps: () => ({}) },
    );
    await expect(handler({ ...event('yesterday') }, context)).rejects.toThrow('not a scheduled event');
    await expect(handler(event('2030-01-02T03:04:05Z'), context)).rejects.toThrow('boom');
    expect(jest.mocked(console.error).mock.calls.map(([line]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({ job: 'TestJob' }),
    );
  });
});
