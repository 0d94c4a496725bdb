import type middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from './logger';
import { countColdStart, flushMetrics } from './metrics';
import { annotateCorrelationId, handlerTracing } from './tracing';

/**
 * The telemetry middleware every chain uses first (written once per trigger kind, so no handler changes): forgets the
 * previous invocation's keys, adds the Lambda context and cold start to the log lines, sets the correlation id
 * `correlationIdOf` finds in the event (an API Gateway request id, an event's id), else the invocation's request id,
 * and writes the invocation's metrics when it ends, answered or failed. Where the environment traces SDK calls, it
 * also opens the handler's X-Ray subsegment, annotated with the correlation id, and closes it last.
 */
export const lambdaTelemetry = <E, R>(
  correlationIdOf: (event: E) => string | undefined = () => undefined,
): middy.MiddlewareObj<E, R, Error, Context> => {
  const tracing = handlerTracing<E, R>();
  return {
    before: async (request) => {
      const { event, context } = request;
      logger.resetKeys();
      // The local stack invokes some handlers without a Lambda context (its queue pollers, its scheduler).
      if (context?.functionName) {
        logger.addContext(context);
        countColdStart(context.functionName);
      }
      await tracing?.before?.(request);
      const id = correlationIdOf(event) ?? context?.awsRequestId;
      if (id) {
        logger.setCorrelationId(id);
        annotateCorrelationId(id);
      }
    },
    after: async (request) => {
      await tracing?.after?.(request);
      flushMetrics();
    },
    onError: async (request) => {
      await tracing?.onError?.(request);
      flushMetrics();
    },
  };
};
