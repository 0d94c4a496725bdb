import { MESSAGES } from '../../../shared/messages';
import { UI_MESSAGES } from './ui-messages';

/**
 * What the user reads when an auth step fails. Spec §8 names the identity library's messages ("Username
 * cannot be empty", "Network Error", "User is not authenticated", …); Amplify v6 words some of them
 * differently ("username is required to signIn"), so its error names are mapped to the spec's wording here.
 * Cognito's own messages ("Incorrect username or password.") pass through unchanged.
 */

/** Thrown for a field left empty, before anything is sent; its message is the spec's. */
export class EmptyFieldError extends Error {
  override readonly name = 'EmptyFieldError';
}

const BY_NAME: Record<string, string> = {
  // Amplify's validation errors (AuthValidationErrorCode).
  EmptySignInUsername: MESSAGES.usernameEmpty,
  EmptySignUpUsername: MESSAGES.usernameEmpty,
  EmptyResetPasswordUsername: MESSAGES.usernameEmpty,
  EmptyConfirmResetPasswordUsername: MESSAGES.usernameEmpty,
  EmptyConfirmSignUpUsername: MESSAGES.usernameEmpty,
  EmptyResendSignUpCodeUsername: MESSAGES.usernameEmpty,
  EmptySignInPassword: MESSAGES.passwordEmpty,
  EmptySignUpPassword: MESSAGES.passwordEmpty,
  EmptyConfirmResetPasswordNewPassword: MESSAGES.passwordEmpty,
  EmptyUpdatePassword: MESSAGES.passwordEmpty,
  EmptyConfirmSignUpCode: MESSAGES.confirmationCodeEmpty,
  EmptyConfirmResetPasswordConfirmationCode: MESSAGES.confirmationCodeEmpty,
  EmptyVerifyTOTPSetupCode: MESSAGES.confirmationCodeEmpty,
  EmptyConfirmUserAttributeCode: MESSAGES.confirmationCodeEmpty,
  EmptyChallengeResponse: MESSAGES.confirmationCodeEmpty,
  // The transport could not reach the identity provider.
  NetworkError: MESSAGES.networkError,
  ERR_NETWORK: MESSAGES.networkError,
  // No tokens (never signed in, signed out elsewhere, refresh failed).
  UserUnAuthenticatedException: MESSAGES.notAuthenticated,
  // Amplify v6's realtime (GraphQL) client: no signed-in user to subscribe as, and no endpoint configured; the live
  // view says the same in the same words (lib/realtime-rules.ts).
  NoSignedUser: MESSAGES.noCurrentUser,
  NoEndpoint: MESSAGES.noGraphqlEndpoint,
};

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** The words to show for a failed auth call. */
export const authErrorMessage = (error: unknown): string => {
  const e = record(error);
  const name = typeof e?.name === 'string' ? e.name : undefined;
  if (name && Object.hasOwn(BY_NAME, name)) return BY_NAME[name]!;
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) return MESSAGES.networkError;
  const message = typeof e?.message === 'string' ? e.message.trim() : '';
  if (message) return message;
  if (typeof error === 'string' && error.trim()) return error;
  // Spec §8: the identity library's generic failure.
  return name === 'AuthError' || name ? UI_MESSAGES.authenticationError : UI_MESSAGES.unknownError;
};

/** An Error whose message is what the user should read: Authenticator shows `error.message` as it is. */
export const toUserFacingError = (error: unknown): Error => {
  const message = authErrorMessage(error);
  if (error instanceof Error && error.message === message) return error;
  const mapped = new Error(message);
  if (error instanceof Error) mapped.name = error.name;
  return mapped;
};

/** Throws the spec's message for the first required value that is empty (or only blanks). */
export const requireFilled = (checks: [value: unknown, message: string][]): void => {
  for (const [value, message] of checks) {
    if (typeof value !== 'string' || !value.trim()) throw new EmptyFieldError(message);
  }
};
