import type {
  ConfirmResetPasswordInput,
  ConfirmSignInInput,
  ConfirmSignUpInput,
  ResendSignUpCodeInput,
  ResetPasswordInput,
  SignInInput,
  SignUpInput,
} from 'aws-amplify/auth';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  resendSignUpCode,
  resetPassword,
  signIn,
  signUp,
} from 'aws-amplify/auth';
import { MESSAGES } from '../../../../shared/messages';
import { requireFilled, toUserFacingError } from '../../lib/auth-errors';
import { type RetryOptions, withRetry } from '../../lib/auth-retry';

type AuthFlowType = NonNullable<NonNullable<SignInInput['options']>['authFlowType']>;

/** The Amplify calls the Authenticator makes; handed in so the unit tests can use fakes. */
export const AMPLIFY_AUTH = {
  signIn,
  signUp,
  confirmSignUp,
  resendSignUpCode,
  confirmSignIn,
  resetPassword,
  confirmResetPassword,
};
export type AmplifyAuth = typeof AMPLIFY_AUTH;

/** Runs an auth call and rethrows its failure with the words the user should read (spec §8). */
const speaking = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw toUserFacingError(error);
  }
};

/**
 * The Authenticator's `services`: Amplify's own calls, plus what the product needs around them:
 * - the auth flow from the runtime configuration (USER_PASSWORD_AUTH locally, SRP in the cloud), also
 *   for the automatic sign-in after a confirmed sign-up;
 * - the spec's messages for empty fields, checked before anything is sent;
 * - sign-in retried on network errors, 429, 500, 502, 503, 504, throttling and timeouts;
 * - every failure worded as spec §8 says.
 */
export const createAuthServices = ({
  authFlowType,
  amplify = AMPLIFY_AUTH,
  retry,
  onSignedUp,
  signInName = (typed) => typed,
}: {
  authFlowType: AuthFlowType;
  /**
   * The user name to sign in with for the address typed: the pool's own user name where this browser is remembered
   * for it, so Amplify finds the browser's device (remembered-browsers.ts).
   */
  signInName?: (typed: string) => string;
  amplify?: AmplifyAuth;
  retry?: RetryOptions;
  /** A sign-up was confirmed (the administrators are told once the new person is signed in). */
  onSignedUp?: () => void;
}) => {
  // The sign-in step the user is answering: a forced new password is a password, anything else a code.
  let signInStep: string | undefined;
  const track = async <T extends { nextStep: { signInStep: string } }>(output: Promise<T>): Promise<T> => {
    const result = await output;
    signInStep = result.nextStep.signInStep;
    return result;
  };

  return {
    handleSignIn: (input: SignInInput) =>
      speaking(() => {
        requireFilled([
          [input.username, MESSAGES.usernameEmpty],
          [input.password, MESSAGES.passwordEmpty],
        ]);
        const username = signInName(input.username.trim());
        return track(
          withRetry(() => amplify.signIn({ ...input, username, options: { ...input.options, authFlowType } }), retry),
        );
      }),

    handleSignUp: (input: SignUpInput) =>
      speaking(() => {
        requireFilled([
          [input.username, MESSAGES.usernameEmpty],
          [input.password, MESSAGES.passwordEmpty],
        ]);
        const { autoSignIn, userAttributes, ...options } = input.options ?? { userAttributes: {} };
        return amplify.signUp({
          ...input,
          username: input.username.trim(),
          options: {
            ...options,
            userAttributes: userAttributes ?? {},
            // Amplify's default auto sign-in uses SRP, which the local identity provider lacks.
            ...(autoSignIn === false ? {} : { autoSignIn: { authFlowType } }),
          },
        });
      }),

    handleConfirmSignUp: (input: ConfirmSignUpInput) =>
      speaking(async () => {
        requireFilled([[input.confirmationCode, MESSAGES.confirmationCodeEmpty]]);
        const result = await amplify.confirmSignUp({ ...input, confirmationCode: input.confirmationCode.trim() });
        if (result.isSignUpComplete) onSignedUp?.();
        return result;
      }),

    handleResendSignUpCode: (input: ResendSignUpCodeInput) =>
      speaking(() => {
        requireFilled([[input.username, MESSAGES.usernameEmpty]]);
        return amplify.resendSignUpCode(input);
      }),

    handleConfirmSignIn: (input: ConfirmSignInInput) =>
      speaking(() => {
        // The challenge answer is a code (TOTP) or a new password (forced reset); both are required.
        const newPassword = signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED';
        requireFilled([
          [input.challengeResponse, newPassword ? MESSAGES.passwordEmpty : MESSAGES.confirmationCodeEmpty],
        ]);
        return track(amplify.confirmSignIn(input));
      }),

    handleForgotPassword: (input: ResetPasswordInput) =>
      speaking(() => {
        requireFilled([[input.username, MESSAGES.usernameEmpty]]);
        return amplify.resetPassword({ ...input, username: input.username.trim() });
      }),

    handleForgotPasswordSubmit: (input: ConfirmResetPasswordInput) =>
      speaking(() => {
        requireFilled([
          [input.confirmationCode, MESSAGES.confirmationCodeEmpty],
          [input.newPassword, MESSAGES.passwordEmpty],
        ]);
        return amplify.confirmResetPassword({ ...input, confirmationCode: input.confirmationCode.trim() });
      }),
  };
};
