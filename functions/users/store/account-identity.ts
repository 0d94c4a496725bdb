import { NotFound } from '../../_shared/errors';
import type { IdentityAdmin } from '../domain/account-deletion';
import type { IdentityProvider } from '../domain/ports';

/** What account deletion needs of the user pool, over the area's identity-provider adapter. */
export const createAccountIdentity = ({
  provider,
}: {
  provider: Pick<IdentityProvider, 'getUser' | 'setEnabled' | 'deleteUser'>;
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
  deleteUser: (id) => provider.deleteUser(id),
});
