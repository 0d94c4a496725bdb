import middy from '@middy/core';
import type { Context, PostAuthenticationTriggerEvent, PostConfirmationTriggerEvent } from 'aws-lambda';
import { log } from '../logger';
import { lambdaTelemetry } from '../telemetry';

/** The Cognito user pool triggers we attach (infra/definitions/services.ts COGNITO_TRIGGERS). */
export type CognitoTriggerEvent = PostAuthenticationTriggerEvent | PostConfirmationTriggerEvent;

export interface CognitoTriggerOptions<D> {
  /** Names the trigger in the logs. */
  name: string;
  /** Builds the dependencies once per cold start. */
  deps: () => D;
  /**
   * How long the work may take before the chain gives up on it and answers. Cognito fails the sign-in when a
   * trigger has not answered within 5 seconds, whatever the Lambda's own timeout.
   * @default 4000 ms
   */
  budgetMs?: number;
}

class OutOfTime extends Error {}

/**
 * The one middy chain for Cognito trigger events (STYLE.md §5). It answers Cognito the event it was given, as
 * Cognito requires, and never fails the sign-in or sign-up because the platform's own bookkeeping failed or
 * was slow: such a failure is logged (with the trigger source and user) and the event is returned all the same.
 */
export const cognitoTrigger = <E extends CognitoTriggerEvent, D>(
  { name, deps, budgetMs = 4_000 }: CognitoTriggerOptions<D>,
  work: (event: E, deps: D) => Promise<void>,
) => {
  let built: D | undefined;
  return middy<E, E, Error, Context>()
    .use(lambdaTelemetry<E, E>())
    .use({
      onError: async (request) => {
        const { error, event } = request;
        const causes = error instanceof AggregateError ? error.errors : [error];
        log('error', `${name}: recording failed; ${event.triggerSource} goes on`, {
          triggerSource: event.triggerSource,
          userName: event.userName,
          errors: causes.map((cause) => (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause))),
        });
        request.response = event;
      },
    })
    .handler(async (event, context) => {
      built ??= deps();
      // Answer a little before the Lambda itself would time out, too.
      const remaining = (context.getRemainingTimeInMillis?.() ?? budgetMs + 200) - 200;
      let timer: NodeJS.Timeout | undefined;
      const outOfTime = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new OutOfTime(`gave up after ${budgetMs} ms`)),
          Math.max(0, Math.min(budgetMs, remaining)),
        );
      });
      try {
        await Promise.race([work(event, built), outOfTime]);
      } finally {
        clearTimeout(timer);
      }
      return event;
    });
};
