import { jest } from '@jest/globals';
import type { Context, PostAuthenticationTriggerEvent, PreSignUpTriggerEvent } from 'aws-lambda';
import { FEDERATED_SIGN_IN_FAILED } from '../../../shared/auth/federated-sign-in';
import { cognitoGate, cognitoTrigger, TriggerRefusal } from './cognito-trigger';

const event: PostAuthenticationTriggerEvent = {
  version: '1',
  region: 'us-west-2',
  userPoolId: 'us-west-2_pool',
  triggerSource: 'PostAuthentication_Authentication',
  userName: 'ada-sub',
  callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'web' },
  request: { userAttributes: { email: 'ada@example.com' }, newDeviceUsed: false },
  response: {},
};

const context = (remainingMs = 3_000) => ({ getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

describe('the Cognito trigger chain', () => {
  let logged: string[];
  beforeEach(() => {
    logged = [];
    jest.spyOn(console, 'error').mockImplementation((line: unknown) => {
      logged.push(String(line));
    });
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('hands the work the event and its dependencies, built once, and answers Cognito the event', async () => {
    const deps = jest.fn(() => ({ table: 'auth-events' }));
    const work = jest.fn(async () => undefined);
    const handler = cognitoTrigger({ name: 'test', deps }, work);
    await expect(handler(event, context())).resolves.toEqual(event);
    await handler(event, context());
    expect(work).toHaveBeenCalledWith(event, { table: 'auth-events' });
    expect(deps).toHaveBeenCalledTimes(1);
  });

  it('never fails the sign-in when the work fails: it logs who and why, and answers the event', async () => {
    const handler = cognitoTrigger({ name: 'identity-events', deps: () => ({}) }, async () => {
      throw new AggregateError([new Error('table gone'), new TypeError('bad record')], 'failed');
    });
    await expect(handler(event, context())).resolves.toEqual(event);
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({
      level: 'ERROR',
      triggerSource: 'PostAuthentication_Authentication',
      userName: 'ada-sub',
      errors: ['Error: table gone', 'TypeError: bad record'],
    });
  });

  // Fake timers: the budget is asserted to the millisecond, not timed against a loaded machine's clock.
  const answeredAt = async (handler: ReturnType<typeof cognitoTrigger>, remainingMs?: number) => {
    jest.useFakeTimers();
    let answered: unknown;
    const answer = handler(event, context(remainingMs)).then((result) => {
      answered = result;
    });
    let elapsed = 0;
    while (answered === undefined && elapsed < 10_000) {
      await jest.advanceTimersByTimeAsync(1);
      elapsed += 1;
    }
    await answer;
    expect(answered).toEqual(event);
    return elapsed;
  };

  it('answers within its time budget when the work hangs, as Cognito gives a trigger 5 seconds', async () => {
    const handler = cognitoTrigger(
      { name: 'slow', deps: () => ({}), budgetMs: 50 },
      () => new Promise(() => undefined),
    );
    expect(await answeredAt(handler)).toBe(50);
    expect(logged[0]).toContain('gave up after 50 ms');
  });

  it('answers 200 ms before the Lambda itself would time out', async () => {
    const handler = cognitoTrigger({ name: 'slow', deps: () => ({}) }, () => new Promise(() => undefined));
    expect(await answeredAt(handler, 300)).toBe(100);
    expect(logged[0]).toContain('gave up after 100 ms');
  });
});

describe('the Cognito gate chain (PreSignUp)', () => {
  const signUp: PreSignUpTriggerEvent = {
    ...event,
    triggerSource: 'PreSignUp_ExternalProvider',
    userName: 'NorthsideAir_abc',
    request: { userAttributes: { email: 'ada@example.com' } },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  };
  let logged: string[];
  beforeEach(() => {
    logged = [];
    for (const level of ['error', 'info'] as const) {
      jest.spyOn(console, level).mockImplementation((line: unknown) => {
        logged.push(String(line));
      });
    }
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers Cognito what the work returns', async () => {
    const handler = cognitoGate({ name: 'gate', deps: () => ({}) }, async (e: PreSignUpTriggerEvent) => e);
    await expect(handler(signUp, context())).resolves.toEqual(signUp);
  });

  it('lets a refusal’s message through to Cognito, logs it, and counts it apart from failures', async () => {
    const counted: string[] = [];
    const counters = { count: (name: string) => void counted.push(name), seconds: () => undefined };
    const handler = cognitoGate<PreSignUpTriggerEvent, object>(
      { name: 'gate', deps: () => ({}), counters },
      async () => {
        throw new TriggerRefusal('Not you.');
      },
    );
    await expect(handler(signUp, context())).rejects.toThrow('Not you.');
    expect(counted).toEqual(['SignUpsRefused']);
    // A failure is not a refusal: it stays one of the function's errors, which page.
    const failing = cognitoGate<PreSignUpTriggerEvent, object>(
      { name: 'gate', deps: () => ({}), counters },
      async () => {
        throw new Error('AccessDenied');
      },
    );
    await expect(failing(signUp, context())).rejects.toThrow(FEDERATED_SIGN_IN_FAILED);
    expect(counted).toEqual(['SignUpsRefused']);
    expect(JSON.parse(logged[0]!)).toMatchObject({
      userName: 'NorthsideAir_abc',
      errors: ['TriggerRefusal: Not you.'],
    });
  });

  it('fails closed with the generic message on any other failure or when out of time, never with its wording', async () => {
    const failing = cognitoGate<PreSignUpTriggerEvent, object>({ name: 'gate', deps: () => ({}) }, async () => {
      throw new Error('AccessDenied: arn:aws:iam::123:role/x');
    });
    await expect(failing(signUp, context())).rejects.toThrow(new TriggerRefusal(FEDERATED_SIGN_IN_FAILED));
    const slow = cognitoGate<PreSignUpTriggerEvent, object>(
      { name: 'gate', deps: () => ({}), budgetMs: 50 },
      () => new Promise(() => undefined),
    );
    await expect(slow(signUp, context())).rejects.toThrow(FEDERATED_SIGN_IN_FAILED);
    expect(logged.join('\n')).toContain('gave up after 50 ms');
  });
});
