import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from './logger';
import { countColdStart, flushMetrics } from './metrics';

/**
 * The telemetry middleware every chain uses first (written once per trigger kind, so no handler changes): forgets the
 * previous invocation's keys, adds the Lambda context and cold start to the log lines, sets the correlation id
 * `correlationIdOf` finds in the event (an API Gateway request id, an event's id), else the invocation's request id,
 * and writes the invocation's metrics when it ends, answered or failed.
 */
export const lambdaTelemetry = <E, R>(
  correlationIdOf: (event: E) => string | undefined = () => undefined,
): middy.MiddlewareObj<E, R, Error, Context> => ({
  before: async ({ event, context }) => {
    logger.resetKeys();
    // The local stack invokes some handlers without a Lambda context (its queue pollers, its scheduler).
    if (context?.functionName) {
      logger.addContext(context);
      countColdStart(context.functionName);
    }
    const id = correlationIdOf(event) ?? context?.awsRequestId;
    if (id) logger.setCorrelationId(id);
  },
  after: async () => flushMetrics(),
  onError: async () => flushMetrics(),
});
