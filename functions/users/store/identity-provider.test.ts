import {
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminListUserAuthEventsCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { MESSAGES } from '../../../shared/messages';
import { AUTH_EVENTS_UNAVAILABLE } from '../domain/ports';
import { quote } from './cognito-filter';
import { createIdentityProvider } from './identity-provider';

const awsError = (name: string) => Object.assign(new Error(`Cognito says ${name}`), { name });

describe('the identity provider adapter', () => {
  const cognito = mockClient(CognitoIdentityProviderClient);
  const provider = createIdentityProvider({
    cognito: new CognitoIdentityProviderClient({ region: 'us-west-2' }),
    userPoolId: 'pool-1',
  });

  beforeEach(() => cognito.reset());
  afterAll(() => cognito.restore());

  it('deletes a person, counting one already gone as deleted, and reports other failures', async () => {
    cognito.on(AdminDeleteUserCommand).resolvesOnce({}).rejectsOnce(awsError('UserNotFoundException'));
    await provider.deleteUser('u-1');
    await provider.deleteUser('u-1');
    expect(cognito.commandCalls(AdminDeleteUserCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'pool-1',
      Username: 'u-1',
    });
    cognito.on(AdminDeleteUserCommand).rejects(awsError('TooManyRequestsException'));
    await expect(provider.deleteUser('u-1')).rejects.toMatchObject({ status: 503 });
  });

  it('reads a person with groups and MFA into the contract shape', async () => {
    cognito.on(AdminGetUserCommand).resolves({
      Username: 'u-1',
      UserAttributes: [
        { Name: 'email', Value: 'ann@example.com' },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'given_name', Value: 'Ann' },
      ],
      UserStatus: 'CONFIRMED',
      Enabled: false,
      UserCreateDate: new Date(1_000),
      UserLastModifiedDate: new Date(2_000),
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
    });
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'Employees', Precedence: 2 }] });
    expect(await provider.getUser('u-1')).toEqual({
      id: 'u-1',
      email: 'ann@example.com',
      emailVerified: true,
      givenName: 'Ann',
      status: 'CONFIRMED',
      enabled: false,
      created: 1_000,
      updated: 2_000,
      groups: ['Employees'],
      mfa: ['SOFTWARE_TOKEN_MFA'],
    });
  });

  it('answers an unknown user as missing (404), a bad page token as 400, throttling as 503', async () => {
    cognito.on(AdminGetUserCommand).rejects(awsError('UserNotFoundException'));
    cognito.on(AdminListGroupsForUserCommand).rejects(awsError('UserNotFoundException'));
    await expect(provider.getUser('ghost')).rejects.toMatchObject({
      status: 404,
      message: MESSAGES.userMissing('ghost'),
    });

    cognito.on(ListUsersCommand).rejects(awsError('InvalidParameterException'));
    await expect(provider.listUsers({ limit: 5, cursor: 'bad' })).rejects.toMatchObject({
      status: 400,
      message: MESSAGES.invalidCursor,
    });
    cognito.on(ListUsersCommand).rejects(awsError('TooManyRequestsException'));
    await expect(provider.listUsers({ limit: 5 })).rejects.toMatchObject({ status: 503 });
  });

  it("searches by e-mail prefix with Cognito's filter syntax, quoting the value", async () => {
    cognito.on(ListUsersCommand).resolves({ Users: [], PaginationToken: 'next' });
    expect(await provider.listUsers({ limit: 500, emailPrefix: 'a"b' })).toEqual({ items: [], nextCursor: 'next' });
    expect(cognito.commandCalls(ListUsersCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'pool-1',
      Limit: 60,
      Filter: 'email ^= "a\\"b"',
    });
    expect(quote('x\\y')).toBe('"x\\\\y"');
  });

  it('pages through the whole pool', async () => {
    cognito
      .on(ListUsersCommand)
      .resolvesOnce({ Users: [{ Username: 'a' }], PaginationToken: 't' })
      .resolvesOnce({ Users: [{ Username: 'b' }] });
    expect((await provider.listAllUsers()).map((u) => u.id)).toEqual(['a', 'b']);
    expect(cognito.commandCalls(ListUsersCommand)[1]!.args[0].input.PaginationToken).toBe('t');
  });

  it('sets names and removes the emptied ones', async () => {
    cognito.on(AdminUpdateUserAttributesCommand).resolves({});
    cognito.on(AdminDeleteUserAttributesCommand).resolves({});
    await provider.updateNames('u-1', { givenName: 'Ann', familyName: '' });
    expect(cognito.commandCalls(AdminUpdateUserAttributesCommand)[0]!.args[0].input.UserAttributes).toEqual([
      { Name: 'given_name', Value: 'Ann' },
    ]);
    expect(cognito.commandCalls(AdminDeleteUserAttributesCommand)[0]!.args[0].input.UserAttributeNames).toEqual([
      'family_name',
    ]);
  });

  it("maps Cognito's auth events, and says when the pool keeps none", async () => {
    cognito.on(AdminListUserAuthEventsCommand).resolves({
      AuthEvents: [{ EventId: 'e1', EventType: 'SignIn', CreationDate: new Date(5_000), EventResponse: 'InProgress' }],
      NextToken: 'n',
    });
    expect(await provider.listAuthEvents('u-1', { limit: 10 })).toEqual({
      items: [{ id: 'e1', type: 'SignIn', time: 5_000, response: 'InProgress', source: 'identity-provider' }],
      nextCursor: 'n',
    });
    cognito.on(AdminListUserAuthEventsCommand).rejects(awsError('UserPoolAddOnNotEnabledException'));
    expect(await provider.listAuthEvents('u-1', { limit: 10 })).toBe(AUTH_EVENTS_UNAVAILABLE);
  });
});
