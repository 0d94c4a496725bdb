import middy from '@middy/core';
import type {
  Context,
  PostAuthenticationTriggerEvent,
  PostConfirmationTriggerEvent,
  PreSignUpTriggerEvent,
} from 'aws-lambda';
import { FEDERATED_SIGN_IN_FAILED } from '../../../shared/auth/federated-sign-in';
import { APP_METRICS } from '../../../shared/operations/metrics';
import { log } from '../logger';
import { type Counters, lambdaCounters } from '../metrics';
import { lambdaTelemetry } from '../telemetry';

/** The Cognito user pool triggers we attach (infra/definitions/services.ts COGNITO_TRIGGERS). */
export type CognitoTriggerEvent = PostAuthenticationTriggerEvent | PostConfirmationTriggerEvent;

/** The triggers whose answer decides whether the sign-up goes on (COGNITO_TRIGGERS' PreSignUp). */
export type CognitoGateEvent = PreSignUpTriggerEvent;

/**
 * A refusal meant for the person: a gate's chain lets its message through to Cognito, which shows it to the caller
 * (`PreSignUp failed with error {message}.`). Any other failure is logged and the person gets a generic message.
 */
export class TriggerRefusal extends Error {
  override name = 'TriggerRefusal';
}

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

const describeError = (cause: unknown) => (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));

/**
 * The one middy chain for Cognito trigger events (docs/style.md §5). It answers Cognito the event it was given, as
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
          errors: causes.map(describeError),
        });
        request.response = event;
      },
    })
    .handler(async (event, context) => {
      built ??= deps();
      await withinBudget(work(event, built), budgetMs, context);
      return event;
    });
};

/** Runs the work, giving up a little before Cognito (or the Lambda itself) would. */
const withinBudget = async <T>(work: Promise<T>, budgetMs: number, context: Context): Promise<T> => {
  const remaining = (context.getRemainingTimeInMillis?.() ?? budgetMs + 200) - 200;
  const waitMs = Math.max(0, Math.min(budgetMs, remaining));
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new OutOfTime(`gave up after ${waitMs} ms`)), waitMs);
  });
  try {
    return await Promise.race([work, outOfTime]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The chain for a trigger that decides (PreSignUp): unlike {@link cognitoTrigger} it fails closed. The work returns
 * the event Cognito gets back (possibly with its `response` filled in). A {@link TriggerRefusal} reaches Cognito
 * with its message; any other failure, or running out of time, is logged and reaches Cognito as
 * FEDERATED_SIGN_IN_FAILED, so that neither an AWS error's wording nor a half-made decision reaches the person.
 */
export const cognitoGate = <E extends CognitoGateEvent, D>(
  {
    name,
    deps,
    budgetMs = 4_000,
    counters = lambdaCounters,
  }: CognitoTriggerOptions<D> & {
    /** Where a refusal is counted (SignUpsRefused): the function's error alarms leave those out. */
    counters?: Counters;
  },
  work: (event: E, deps: D) => Promise<E>,
) => {
  let built: D | undefined;
  return middy<E, E, Error, Context>()
    .use(lambdaTelemetry<E, E>())
    .handler(async (event, context) => {
      try {
        built ??= deps();
        return await withinBudget(work(event, built), budgetMs, context);
      } catch (error) {
        const refused = error instanceof TriggerRefusal;
        if (refused) counters.count(APP_METRICS.signUpsRefused);
        log(refused ? 'info' : 'error', `${name}: ${event.triggerSource} ${refused ? 'refused' : 'failed'}`, {
          triggerSource: event.triggerSource,
          userName: event.userName,
          errors: [describeError(error)],
        });
        throw refused ? error : new TriggerRefusal(FEDERATED_SIGN_IN_FAILED);
      }
    });
};
