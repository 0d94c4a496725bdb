import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AppMetric } from '../../shared/operations/metrics';
import { readEnvOr } from './env';
import { log } from './logger';

/**
 * What use cases count with, a port they get through their dependencies: the Lambda's metrics are written as EMF
 * log lines after each invocation ({@link flushMetrics}), so counting never waits on a network call.
 */
export interface Counters {
  count(name: AppMetric, value?: number): void;
  seconds(name: AppMetric, value: number): void;
}

let metrics: Metrics | undefined;

/**
 * Built on first use, not at import: the local stack sets POWERTOOLS_METRICS_DISABLED (its functions share one
 * process and no CloudWatch reads their output) after some shared modules are already loaded.
 */
const instance = (): Metrics => {
  metrics ??= new Metrics({
    namespace: readEnvOr('POWERTOOLS_METRICS_NAMESPACE', 'device-data/local'),
    serviceName: readEnvOr('POWERTOOLS_SERVICE_NAME', 'device-data'),
    // Its own notices (an invocation that counted nothing is normal here) go to the log at debug.
    logger: {
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (message: unknown) => log('debug', String(message)),
      error: (message: unknown) => log('error', String(message)),
    },
  });
  return metrics;
};

export const lambdaCounters: Counters = {
  count: (name, value = 1) => instance().addMetric(name, MetricUnit.Count, value),
  seconds: (name, value) => instance().addMetric(name, MetricUnit.Seconds, value),
};

/** The `ColdStart` metric, written at once on an instance's first invocation only. */
export const countColdStart = (functionName: string | undefined): void => {
  instance().captureColdStartMetric(functionName);
};

/** Writes what the invocation counted, once. */
export const flushMetrics = (): void => {
  instance().publishStoredMetrics();
};
