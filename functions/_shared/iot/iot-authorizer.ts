import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { log } from '../logger';
import { lambdaTelemetry } from '../telemetry';

/** What IoT Core hands a custom authorizer: the protocol data and the connection's id (for the logs). */
export interface IotAuthorizerEvent {
  connectionMetadata?: { id?: string };
}

/** The answer IoT Core reads; a refusal needs nothing but `isAuthenticated: false`. */
export type IotAuthorizerResult = { isAuthenticated: boolean } & Record<string, unknown>;

export interface IotAuthorizerOptions<D> {
  /** Names the authorizer in the logs. */
  name: string;
  /** Builds the dependencies once per cold start. */
  deps: () => D;
}

/** What any failure answers: IoT Core refuses the connection, which the device retries. */
export const NOT_AUTHENTICATED = { isAuthenticated: false } as const;

/**
 * The one middy chain for IoT Core custom authorizers (docs/style.md §5). The work decides and returns the answer; the
 * chain carries the connection id as the correlation id, and its error mapping (last) turns any failure, a store
 * that is down included, into a refusal that is logged: IoT Core would read a thrown error as a failed invocation
 * and refuse all the same, but without our reason in the logs. A refused device simply connects again later.
 */
export const iotAuthorizer = <E extends IotAuthorizerEvent, R extends IotAuthorizerResult, D>(
  { name, deps }: IotAuthorizerOptions<D>,
  work: (event: E, deps: D) => Promise<R>,
) => {
  let built: D | undefined;
  return middy<E, R | typeof NOT_AUTHENTICATED, Error, Context>()
    .use(lambdaTelemetry<E, R | typeof NOT_AUTHENTICATED>((event) => event?.connectionMetadata?.id))
    .use({
      onError: async (request) => {
        log('error', `${name}: authorizing failed; the connection is refused`, {
          connectionId: request.event?.connectionMetadata?.id,
          error:
            request.error instanceof Error ? `${request.error.name}: ${request.error.message}` : String(request.error),
        });
        request.response = NOT_AUTHENTICATED;
      },
    })
    .handler(async (event) => {
      built ??= deps();
      return work(event, built);
    });
};
