import { getCognitoClient } from '../../_shared/clients';
import { type EnvSource, readEnv } from '../../_shared/env';
import { createFederatedAccounts } from '../store/federated-accounts';

/** The names of the providers the environment trusts for linking, as JSON (`providersTrustedForLinking`). */
const TRUSTED_PROVIDERS_ENV = 'LINKING_TRUSTED_PROVIDERS';

/**
 * What the identity provider's PreSignUp trigger reads: the trusted list as the CDK writes it; anything else stops the
 * cold start rather than trusting by accident.
 */
export const readPreSignUpEnv = (env?: EnvSource) => {
  const list: unknown = JSON.parse(readEnv({ list: TRUSTED_PROVIDERS_ENV }, env).list);
  // Checked by hand, not with zod: the trigger's bundle stays small (it runs before every sign-up).
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && name.length > 0)) {
    throw new Error(`${TRUSTED_PROVIDERS_ENV} is not a JSON list of provider names`);
  }
  return { trustedProviders: list as string[] };
};

/** The linking rule's reads of the pool: the pool is the event's, as for the identity events. */
export const createPreSignUpDeps = ({ trustedProviders }: ReturnType<typeof readPreSignUpEnv>) => ({
  trustedProviders,
  accounts: createFederatedAccounts({ cognito: getCognitoClient() }),
});
