import {
  AdminAddUserToGroupCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { createFederatedAccounts } from './federated-accounts';

const attributes = (email: string, verified: string) => [
  { Name: 'email', Value: email },
  { Name: 'email_verified', Value: verified },
];

describe('the federated accounts adapter', () => {
  const cognito = mockClient(CognitoIdentityProviderClient);
  const accounts = createFederatedAccounts({ cognito: new CognitoIdentityProviderClient({ region: 'us-west-2' }) });
  beforeEach(() => cognito.reset());
  afterAll(() => cognito.restore());

  it('reads every page of the accounts holding the e-mail, quoted, and tells which are proven and which federated', async () => {
    cognito
      .on(ListUsersCommand)
      .resolvesOnce({
        Users: [{ Username: 'ada-sub', UserStatus: 'CONFIRMED', Attributes: attributes('Ada@example.com', 'true') }],
        PaginationToken: 'next',
      })
      .resolvesOnce({
        Users: [
          { Username: 'squat-sub', UserStatus: 'UNCONFIRMED', Attributes: attributes('ada@example.com', 'false') },
          { Username: 'google_1', UserStatus: 'EXTERNAL_PROVIDER', Attributes: attributes('ada@example.com', 'true') },
        ],
      });
    expect(await accounts.withEmail('pool-1', 'a"da@example.com')).toEqual([
      { username: 'ada-sub', email: 'Ada@example.com', federated: false, confirmed: true },
      { username: 'squat-sub', email: 'ada@example.com', federated: false, confirmed: false },
      { username: 'google_1', email: 'ada@example.com', federated: true, confirmed: false },
    ]);
    const calls = cognito.commandCalls(ListUsersCommand).map((call) => call.args[0].input);
    expect(calls[0]).toEqual({ UserPoolId: 'pool-1', Filter: 'email = "a\\"da@example.com"', Limit: 60 });
    expect(calls[1]).toMatchObject({ PaginationToken: 'next' });
  });

  it('adds a user of the pool it is given to a group', async () => {
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    await accounts.addToGroup('pool-2', 'NorthsideAir_abc', 'Authenticated_users');
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'pool-2',
      Username: 'NorthsideAir_abc',
      GroupName: 'Authenticated_users',
    });
  });
});
