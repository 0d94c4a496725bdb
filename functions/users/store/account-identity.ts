import { AdminDeleteUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { NotFound } from '../../_shared/errors';
import type { IdentityAdmin } from '../domain/account-deletion';
import type { IdentityProvider } from './identity-provider';

const isNamed = (error: unknown, name: string) => error instanceof Error && error.name === name;

/**
 * What account deletion needs of the user pool, over the area's identity-provider adapter; deleting is
 * the one call that adapter does not make, so it is made here (AdminDeleteUser, "already gone" is fine).
 */
export const createAccountIdentity = ({
  provider,
  cognito,
  userPoolId,
}: {
  provider: Pick<IdentityProvider, 'getUser' | 'setEnabled'>;
  cognito: CognitoIdentityProviderClient;
  userPoolId: string;
}): IdentityAdmin => ({
  disableUser: (id) => provider.setEnabled(id, false),
  enableUser: (id) => provider.setEnabled(id, true),
  getUser: async (id) => {
    try {
      const user = await provider.getUser(id);
      return user.email ? { email: user.email } : {};
    } catch (error) {
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  },
  deleteUser: async (id) => {
    try {
      await cognito.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: id }));
    } catch (error) {
      if (!isNamed(error, 'UserNotFoundException')) throw error;
    }
  },
});
