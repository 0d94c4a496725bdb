import {
  AdminLinkProviderForUserCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { jest } from '@jest/globals';
import type { Context, PreSignUpTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { FEDERATED_ACCOUNT_EXISTS, FEDERATED_SIGN_IN_FAILED } from '../../shared/auth/federated-sign-in';

// The module reads its environment at import, as a Lambda does at cold start.
process.env.LINKING_TRUSTED_PROVIDERS ??= '["NorthsideAir"]';
process.env.AWS_REGION ??= 'us-west-2';
const { handler } = await import('./pre-sign-up');
const { readPreSignUpEnv } = await import('./wiring/pre-sign-up');
const readTrustedProviders = (env: Record<string, string | undefined>) => readPreSignUpEnv(env).trustedProviders;

const event = (
  triggerSource: PreSignUpTriggerEvent['triggerSource'],
  userAttributes: Record<string, string>,
  userName = 'NorthsideAir_abc123',
): PreSignUpTriggerEvent => ({
  version: '1',
  region: 'us-west-2',
  userPoolId: 'us-west-2_pool',
  triggerSource,
  userName,
  callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'web' },
  request: { userAttributes },
  response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
});
const federated = (emailVerified: string, userName?: string) =>
  event(
    'PreSignUp_ExternalProvider',
    { email: 'ada@example.com', email_verified: emailVerified, given_name: 'Ada', family_name: 'Lovelace' },
    userName,
  );
const context = { getRemainingTimeInMillis: () => 4_000 } as unknown as Context;
const nativeAda = {
  Username: 'ada-native-sub',
  UserStatus: 'CONFIRMED' as const,
  Attributes: [
    { Name: 'email', Value: 'ada@example.com' },
    { Name: 'email_verified', Value: 'true' },
  ],
};

describe('the PreSignUp trigger (the federated linking rule)', () => {
  const cognito = mockClient(CognitoIdentityProviderClient);
  beforeEach(() => {
    cognito.reset();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => cognito.restore());

  it('passes an account staff create through unchanged, asking the pool nothing', async () => {
    const signUp = event('PreSignUp_AdminCreateUser', { email: 'ada@example.com' }, 'ada@example.com');
    await expect(handler(signUp, context)).resolves.toEqual(signUp);
    expect(cognito.calls()).toHaveLength(0);
  });

  it('passes an e-mail-and-password sign-up, unless a provider’s login holds the address', async () => {
    const signUp = event('PreSignUp_SignUp', { email: 'ada@example.com' }, 'ada@example.com');
    cognito.on(ListUsersCommand).resolves({ Users: [] });
    await expect(handler(signUp, context)).resolves.toEqual(signUp);
    cognito.on(ListUsersCommand).resolves({
      Users: [{ ...nativeAda, Username: 'Google_1', UserStatus: 'EXTERNAL_PROVIDER' }],
    });
    await expect(handler(signUp, context)).rejects.toThrow(FEDERATED_ACCOUNT_EXISTS);
  });

  it('lets a first federated sign-in through when no account has the e-mail', async () => {
    cognito.on(ListUsersCommand).resolves({ Users: [] });
    const signUp = federated('false');
    await expect(handler(signUp, context)).resolves.toEqual(signUp);
    expect(cognito.commandCalls(ListUsersCommand)[0]!.args[0].input).toMatchObject({
      UserPoolId: 'us-west-2_pool',
      Filter: 'email = "ada@example.com"',
    });
    expect(cognito.commandCalls(AdminLinkProviderForUserCommand)).toHaveLength(0);
  });

  it('links a trusted provider’s verified login to the existing account, by the provider’s subject', async () => {
    cognito.on(ListUsersCommand).resolves({ Users: [nativeAda] });
    cognito.on(AdminLinkProviderForUserCommand).resolves({});
    const signUp = federated('true');
    await expect(handler(signUp, context)).resolves.toEqual(signUp);
    expect(cognito.commandCalls(AdminLinkProviderForUserCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'us-west-2_pool',
      DestinationUser: { ProviderName: 'Cognito', ProviderAttributeValue: 'ada-native-sub' },
      SourceUser: {
        ProviderName: 'NorthsideAir',
        ProviderAttributeName: 'Cognito_Subject',
        ProviderAttributeValue: 'abc123',
      },
    });
  });

  it.each([
    ['an unverified e-mail', federated('false')],
    ['an untrusted provider', federated('true', 'Campus_abc123')],
  ])('refuses %s with the message, and links nothing', async (_case, signUp) => {
    cognito.on(ListUsersCommand).resolves({ Users: [nativeAda] });
    await expect(handler(signUp, context)).rejects.toThrow(FEDERATED_ACCOUNT_EXISTS);
    expect(cognito.commandCalls(AdminLinkProviderForUserCommand)).toHaveLength(0);
  });

  it('fails closed with a generic message when the pool fails: no second account, no AWS wording', async () => {
    cognito
      .on(ListUsersCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));
    const failure = handler(federated('true'), context);
    await expect(failure).rejects.toThrow(FEDERATED_SIGN_IN_FAILED);
    await expect(failure).rejects.not.toThrow(/Rate exceeded/);
  });
});

describe('the trusted providers setting', () => {
  it('reads the JSON list the CDK writes, and stops the cold start on anything else', () => {
    expect(readTrustedProviders({ LINKING_TRUSTED_PROVIDERS: '[]' })).toEqual([]);
    expect(readTrustedProviders({ LINKING_TRUSTED_PROVIDERS: '["Google","NorthsideAir"]' })).toEqual([
      'Google',
      'NorthsideAir',
    ]);
    for (const value of [undefined, 'Google', '{"Google":true}', '[""]']) {
      expect(() => readTrustedProviders({ LINKING_TRUSTED_PROVIDERS: value })).toThrow();
    }
  });
});
