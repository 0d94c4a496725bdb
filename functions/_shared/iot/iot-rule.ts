import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { log } from '../logger';
import { lambdaTelemetry } from '../telemetry';

/** What an IoT rule `SELECT *, topic() AS topic FROM '…'` hands its Lambda action: the payload and its topic. */
export type IotRuleEvent = Record<string, unknown> & { topic: string };

export interface IotRuleOptions<D> {
  deps: () => D;
}

/**
 * The chain for IoT topic rules, written once. The work decides what a message means and returns a summary
 * (logged); refusals a device should know about are the work's to count, not to throw. An error is logged
 * and rethrown so IoT Core's error action and the Lambda's retries see it (locally the rule bridge reports it).
 */
export const iotRule = <D, R>(
  name: string,
  work: (event: IotRuleEvent, deps: D) => Promise<R>,
  options: IotRuleOptions<D>,
) => {
  let deps: D | undefined;
  return middy<IotRuleEvent, R, Error, Context>()
    .use(lambdaTelemetry<IotRuleEvent, R>())
    .use({
      onError: async (request) => {
        log('error', 'IoT rule failed', {
          rule: name,
          topic: request.event?.topic,
          error: request.error instanceof Error ? request.error.message : String(request.error),
          stack: request.error instanceof Error ? request.error.stack : undefined,
        });
      },
    })
    .handler(async (event) => {
      if (!event || typeof event.topic !== 'string') throw new Error(`${name}: the event has no topic`);
      deps ??= options.deps();
      const started = Date.now();
      const result = await work(event, deps);
      log('info', 'IoT rule done', { rule: name, topic: event.topic, ms: Date.now() - started, result });
      return result;
    });
};
