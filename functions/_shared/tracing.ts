import type middy from '@middy/core';

type XRayTracing = typeof import('./tracing-x-ray');

/**
 * Powertools' Tracer where the environment traces SDK calls (`traceSdkCalls` in infra/definitions/environments.ts,
 * docs/decisions/045-sdk-tracing-per-environment.md), nothing elsewhere. The bundler replaces
 * `process.env.TRACE_SDK_CALLS` with the environment's setting (infra/services/lambda-bundling.ts), and a bundle
 * built with it off holds none of the X-Ray SDK (about 120 KB and 20 ms of every cold start): the `require` sits in a
 * branch esbuild removes, where an `import` statement would stay. The sources (tests, `npm start`) never trace.
 * So the expression must stay the literal `process.env.TRACE_SDK_CALLS`, the one such outside the env reader: read
 * through functions/_shared/env.ts, it would no longer be a constant the bundler can fold, and the X-Ray SDK would stay
 * in every bundle (test/infra/lambda-bundles.test.ts measures it).
 */
const xRay = (): XRayTracing | undefined =>
  // biome-ignore lint/style/noRestrictedGlobals: a bundle-time constant, not a read (functions/_shared/env.ts says why).
  process.env.TRACE_SDK_CALLS === 'true' && typeof require === 'function'
    ? (require('./tracing-x-ray') as XRayTracing)
    : undefined;

/** The client, its calls traced where the environment traces SDK calls (every client in functions/_shared/clients.ts). */
export const traced = <C extends object>(client: C): C => xRay()?.captureClient(client) ?? client;

/** The handler's subsegment, for the telemetry middleware every chain starts with; none where nothing is traced. */
export const handlerTracing = <E, R>(): middy.MiddlewareObj<E, R> | undefined => xRay()?.handlerTracing<E, R>();

/** The correlation id of the log lines, on the trace too: the trace of a logged request is found by it. */
export const annotateCorrelationId = (id: string): void => xRay()?.annotate('correlation_id', id);
