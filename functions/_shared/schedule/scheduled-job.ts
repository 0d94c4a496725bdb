import middy from '@middy/core';
import type { Context, ScheduledEvent } from 'aws-lambda';
import * as z from 'zod';
import { log } from '../logger';
import { lambdaTelemetry } from '../telemetry';

/** What EventBridge hands a scheduled Lambda; only `time` matters to a job, the rest is logged. */
const ScheduledEventShape = z.object({
  id: z.string(),
  'detail-type': z.literal('Scheduled Event'),
  time: z.iso.datetime({ offset: true }),
  resources: z.array(z.string()).default([]),
});

export interface JobRun {
  /** The schedule's time (the event's `time`, ms): the job's "now", so a run is reproducible and testable. */
  now: number;
  eventId: string;
}

export interface ScheduledJobOptions<D> {
  /** Builds the job's dependencies once per cold start. */
  deps: () => D;
}

/**
 * The chain for scheduled jobs, written once: the event is validated and its time becomes the job's
 * "now"; start, end and result are logged as one JSON line each. A failure is logged and rethrown, so
 * the Lambda service's retries of an asynchronous invocation (and its failure metrics) see it. A job that
 * works through many items should itself log and skip an item that fails, and report it in its result.
 */
export const scheduledJob = <D, R>(
  name: string,
  job: (run: JobRun, deps: D) => Promise<R>,
  options: ScheduledJobOptions<D>,
) => {
  let deps: D | undefined;
  return middy<ScheduledEvent, R, Error, Context>()
    .use(lambdaTelemetry<ScheduledEvent, R>((event) => event?.id))
    .use({
      onError: async (request) => {
        log('error', 'Scheduled job failed', {
          job: name,
          eventId: request.event?.id,
          error: request.error instanceof Error ? request.error.message : String(request.error),
          stack: request.error instanceof Error ? request.error.stack : undefined,
        });
      },
    })
    .handler(async (event) => {
      const parsed = ScheduledEventShape.safeParse(event);
      if (!parsed.success) throw new Error(`${name}: not a scheduled event: ${parsed.error.message}`);
      deps ??= options.deps();
      const started = Date.now();
      const run: JobRun = { now: Date.parse(parsed.data.time), eventId: parsed.data.id };
      log('info', 'Scheduled job started', { job: name, eventId: run.eventId, time: parsed.data.time });
      const result = await job(run, deps);
      log('info', 'Scheduled job done', { job: name, eventId: run.eventId, ms: Date.now() - started, result });
      return result;
    });
};
