/**
 * Federated sign-in (issue 21, docs/decisions/037-federated-linking-rule.md): what a person is told when their first
 * sign-in through an identity provider cannot become an account. Cognito shows a PreSignUp trigger's error to the
 * caller as `PreSignUp failed with error {message}.` (on the hosted sign-in's redirect, `error_description`); the
 * local identity layer and the web app show the same words, so a test can assert the very string a person reads.
 */

/**
 * An account with the provider's e-mail exists and the login may not be linked to it (the provider is not trusted
 * for linking, or did not assert the e-mail verified). It says what to do and nothing about why: neither which
 * provider is trusted nor how the existing account signs in.
 */
export const FEDERATED_ACCOUNT_EXISTS =
  'An account with this e-mail address already exists. Sign in to it the way you usually do (with your e-mail ' +
  'address and password, or the provider you first used); if you cannot, reset your password from the sign-in page.';

/** The provider sent no e-mail address, which every account needs. */
export const FEDERATED_NO_EMAIL =
  'Your sign-in provider did not share an e-mail address with us, and every account needs one. Ask your provider ' +
  'to share it, or sign up with your e-mail address and a password.';

/** The sign-up could not be decided (the user pool did not answer in time, or failed): nothing was created. */
export const FEDERATED_SIGN_IN_FAILED = 'We could not finish signing you in. Please try again in a moment.';

/** Cognito's wording around a PreSignUp trigger's message, as the caller receives it. */
export const preSignUpFailure = (message: string) => `PreSignUp failed with error ${message}.`;

/** The trigger's message inside Cognito's wording, or undefined when the text is not one of ours. */
export const federatedRefusalOf = (text: string): string | undefined =>
  [FEDERATED_ACCOUNT_EXISTS, FEDERATED_NO_EMAIL, FEDERATED_SIGN_IN_FAILED].find((message) => text.includes(message));
