import {
  AdminAddUserToGroupCommand,
  AdminLinkProviderForUserCommand,
  type CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { ExistingAccount, FederatedAccountsPort, ProviderLogin } from '../domain/federated-linking';
import { quote } from './cognito-filter';

/** Cognito's largest ListUsers page. An e-mail names one account, or a few with providers' logins. */
const PAGE = 60;

/**
 * What the identity triggers ask of the user pool: the accounts holding an e-mail, the link of a provider's login to
 * one of them, a group for a new person. The pool comes with each call: a trigger learns it from its event, as its
 * function cannot name the pool that names the function (a CloudFormation cycle). Apart from the users API's
 * identity-provider store so that the triggers' bundles carry neither its contracts nor its messages.
 */
export const createFederatedAccounts = ({
  cognito,
}: {
  cognito: CognitoIdentityProviderClient;
}): FederatedAccountsPort & { addToGroup: (userPoolId: string, username: string, group: string) => Promise<void> } => ({
  addToGroup: async (userPoolId: string, username: string, group: string): Promise<void> => {
    await cognito.send(
      new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: username, GroupName: group }),
    );
  },

  /** Every account whose e-mail is `email` (Cognito's `=` filter on e-mail ignores case). */
  withEmail: async (userPoolId: string, email: string): Promise<(ExistingAccount & { email: string })[]> => {
    const accounts: (ExistingAccount & { email: string })[] = [];
    let token: string | undefined;
    do {
      const page = await cognito.send(
        new ListUsersCommand({
          UserPoolId: userPoolId,
          Filter: `email = ${quote(email)}`,
          Limit: PAGE,
          ...(token ? { PaginationToken: token } : {}),
        }),
      );
      for (const user of page.Users ?? []) {
        const attribute = (name: string) => user.Attributes?.find((a) => a.Name === name)?.Value;
        accounts.push({
          username: user.Username ?? '',
          email: attribute('email') ?? '',
          federated: user.UserStatus === 'EXTERNAL_PROVIDER',
          confirmed: user.UserStatus === 'CONFIRMED' && attribute('email_verified') === 'true',
        });
      }
      token = page.PaginationToken;
    } while (token);
    return accounts;
  },

  /** Makes the provider's login sign in as the existing e-mail-and-password account `username`. */
  link: async (userPoolId: string, username: string, login: ProviderLogin): Promise<void> => {
    await cognito.send(
      new AdminLinkProviderForUserCommand({
        UserPoolId: userPoolId,
        DestinationUser: { ProviderName: 'Cognito', ProviderAttributeValue: username },
        SourceUser: {
          ProviderName: login.providerName,
          ProviderAttributeName: 'Cognito_Subject',
          ProviderAttributeValue: login.subject,
        },
      }),
    );
  },
});
