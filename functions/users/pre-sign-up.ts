import { type CognitoGateEvent, cognitoGate, TriggerRefusal } from '../_shared/cognito/cognito-trigger';
import { admitFederatedSignUp, admitNativeSignUp, type FederatedAccountsPort } from './domain/federated-linking';
import { createPreSignUpDeps, readPreSignUpEnv } from './wiring/pre-sign-up';

/**
 * The identity provider's PreSignUp trigger (COGNITO_TRIGGERS): a first sign-in through an identity provider
 * (`PreSignUp_ExternalProvider`) goes through the linking rule, and an e-mail-and-password sign-up of an address a
 * provider's login holds is refused (docs/decisions/037-federated-linking-rule.md); an account staff create passes
 * unchanged. The user pool comes from the event: the function cannot be told its own pool's id without a
 * CloudFormation cycle.
 */

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

const env = readPreSignUpEnv();

export const handler = cognitoGate<CognitoGateEvent, PreSignUpDeps>(
  { name: 'pre-sign-up', deps: () => createPreSignUpDeps(env) },
  preSignUp,
);
