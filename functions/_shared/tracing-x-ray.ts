import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type middy from '@middy/core';
import { readEnvOr } from './env';

/**
 * Powertools' Tracer, in the bundles of environments that trace SDK calls only: functions/_shared/tracing.ts loads
 * this module, and nothing else may import it (it would put the X-Ray SDK into every bundle).
 */
const tracer = new Tracer({ serviceName: readEnvOr('POWERTOOLS_SERVICE_NAME', 'device-data') });

/** A subsegment per call the client makes (its service, operation, table or queue, status and retries). */
export const captureClient = <C extends object>(client: C): C => tracer.captureAWSv3Client(client);

/**
 * The invocation's `## {handler}` subsegment, annotated with the cold start and the service. Responses are not
 * recorded: they hold people's data, and X-Ray is read by more people than the data's owners.
 */
export const handlerTracing = <E, R>(): middy.MiddlewareObj<E, R> =>
  captureLambdaHandler(tracer, { captureResponse: false }) as middy.MiddlewareObj<E, R>;

/** An annotation on the current (sub)segment: X-Ray indexes annotations, so a trace can be found by it. */
export const annotate = (key: string, value: string): void => tracer.putAnnotation(key, value);
