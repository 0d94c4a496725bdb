import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { REGION } from '../definitions/environments';
import { SCHEDULED_JOBS } from '../definitions/services';

export type ScheduledHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface ScheduledJobDefinition {
  name: string;
  entry: string;
  everyMinutes: number;
  /** Here, every this many seconds instead (the alerts sweep's 10 s). */
  localEverySeconds?: number;
}

export interface SchedulerOptions {
  rootDir: string;
  /** @default SCHEDULED_JOBS */
  jobs?: readonly ScheduledJobDefinition[];
  onError?: (job: string, error: unknown) => void;
  onRun?: (job: string, result: unknown) => void;
}

const LOCAL_ACCOUNT = '000000000000';

/** The event EventBridge hands a scheduled Lambda, for one job at one time. */
export const scheduledEvent = (job: string, time: Date): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: LOCAL_ACCOUNT,
  time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: REGION,
  resources: [`arn:aws:events:${REGION}:${LOCAL_ACCOUNT}:rule/${job}`],
  detail: {},
});

const lambdaContext = (job: string): Context =>
  ({
    functionName: job,
    functionVersion: '$LATEST',
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => 15 * 60 * 1000,
  }) as Context;

/**
 * What EventBridge schedules do, for the local home: each SCHEDULED_JOBS entry runs every `everyMinutes` (or
 * `localEverySeconds`; the first run one interval after start, as a `rate()` rule), in-process, with a scheduled event whose
 * `time` is the moment it fires. A run still going when the next is due is not overlapped: that tick is
 * skipped. `run(name, time)` fires a job at once (at any time: tests use a time weeks ahead).
 */
export const startScheduler = async (options: SchedulerOptions) => {
  const jobs = options.jobs ?? SCHEDULED_JOBS;
  const loaded = await Promise.all(
    jobs.map(async (job) => {
      const module = (await import(pathToFileURL(path.join(options.rootDir, job.entry)).href)) as {
        handler: ScheduledHandler;
      };
      return { ...job, handler: module.handler };
    }),
  );
  const running = new Map<string, Promise<unknown>>();
  let paused = false;

  const run = async (name: string, time = new Date()): Promise<unknown> => {
    const job = loaded.find((j) => j.name === name);
    if (!job) throw new Error(`No scheduled job ${name}`);
    const current = job.handler(scheduledEvent(name, time), lambdaContext(name));
    running.set(name, current);
    try {
      const result = await current;
      options.onRun?.(name, result);
      return result;
    } finally {
      if (running.get(name) === current) running.delete(name);
    }
  };

  const timers = loaded.map((job) =>
    setInterval(
      () => {
        if (paused || running.has(job.name)) return;
        run(job.name).catch((error: unknown) => options.onError?.(job.name, error));
      },
      (job.localEverySeconds ?? job.everyMinutes * 60) * 1_000,
    ),
  );
  for (const timer of timers) timer.unref();

  return {
    run,
    /** Holds the timed runs (a run in progress finishes first); `run` still fires a job when asked. */
    pause: async () => {
      paused = true;
      await Promise.allSettled([...running.values()]);
    },
    resume: () => {
      paused = false;
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
};
