import { getCognitoClient } from '../_shared/clients';
import { type CognitoGateEvent, cognitoGate, TriggerRefusal } from '../_shared/cognito/cognito-trigger';
import { type EnvSource, readEnv } from '../_shared/env';
import { admitFederatedSignUp, admitNativeSignUp, type FederatedAccountsPort } from './domain/federated-linking';
import { createFederatedAccounts } from './store/federated-accounts';

/**
 * The identity provider's PreSignUp trigger (COGNITO_TRIGGERS): a first sign-in through an identity provider
 * (`PreSignUp_ExternalProvider`) goes through the linking rule, and an e-mail-and-password sign-up of an address a
 * provider's login holds is refused (docs/decisions/037-federated-linking-rule.md); an account staff create passes
 * unchanged. The user pool comes from the event: the function cannot be told its own pool's id without a
 * CloudFormation cycle.
 */

/** The names of the providers the environment trusts for linking, as JSON (`providersTrustedForLinking`). */
const TRUSTED_PROVIDERS_ENV = 'LINKING_TRUSTED_PROVIDERS';

export interface PreSignUpDeps {
  trustedProviders: readonly string[];
  accounts: FederatedAccountsPort;
}

export const preSignUp = async (event: CognitoGateEvent, { trustedProviders, accounts }: PreSignUpDeps) => {
  const { userPoolId } = event;
  // An account staff create (AdminCreateUser) is their decision, made in the pool's own console or API.
  if (event.triggerSource === 'PreSignUp_AdminCreateUser') return event;
  const decision =
    event.triggerSource === 'PreSignUp_ExternalProvider'
      ? await admitFederatedSignUp(
          { userName: event.userName, attributes: event.request.userAttributes },
          { userPoolId, trustedProviders, accounts },
        )
      : await admitNativeSignUp(event.request.userAttributes.email ?? '', { userPoolId, accounts });
  if (decision.kind === 'refuse') throw new TriggerRefusal(decision.message);
  return event;
};

/** The trusted list as the CDK writes it; anything else stops the cold start rather than trusting by accident. */
export const readTrustedProviders = (env?: EnvSource): string[] => {
  const list: unknown = JSON.parse(readEnv({ list: TRUSTED_PROVIDERS_ENV }, env).list);
  // Checked by hand, not with zod: the trigger's bundle stays small (it runs before every sign-up).
  if (!Array.isArray(list) || !list.every((name) => typeof name === 'string' && name.length > 0)) {
    throw new Error(`${TRUSTED_PROVIDERS_ENV} is not a JSON list of provider names`);
  }
  return list;
};

const trustedProviders = readTrustedProviders();

export const handler = cognitoGate<CognitoGateEvent, PreSignUpDeps>(
  {
    name: 'pre-sign-up',
    deps: () => ({ trustedProviders, accounts: createFederatedAccounts({ cognito: getCognitoClient() }) }),
  },
  preSignUp,
);
