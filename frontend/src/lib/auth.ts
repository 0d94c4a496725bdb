import { Amplify } from 'aws-amplify';
import { fetchAuthSession, type SignInOutput, signIn, signOut } from 'aws-amplify/auth';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { runtimeConfig } from './runtime-config';
import { type SessionUser, sessionUserFrom } from './session-user';

/** Written on sign-out; other tabs see the `storage` event and end their session too (spec §2). */
export const LOGOUT_STORAGE_KEY = 'ddp.logout-at';

/** Configures Amplify Auth from the runtime configuration; `userPoolEndpoint` is only set locally. */
export const configureAuth = (config: RuntimeConfig): void => {
  const { userPoolId, userPoolClientId, userPoolEndpoint } = config.auth;
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId,
        userPoolClientId,
        ...(userPoolEndpoint ? { userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
};

/**
 * The auth flow comes from the configuration (USER_PASSWORD_AUTH locally, where cognito-local has no
 * SRP; USER_SRP_AUTH in the cloud), so this code never asks which home it runs in.
 */
export const signInWithPassword = (username: string, password: string): Promise<SignInOutput> =>
  signIn({ username, password, options: { authFlowType: runtimeConfig().auth.authFlowType } });

/** The signed-in user from the current tokens (refreshed by Amplify when needed), or undefined for a guest. */
export const readSessionUser = async (): Promise<SessionUser | undefined> => {
  const { tokens } = await fetchAuthSession();
  if (!tokens?.accessToken) return undefined;
  return sessionUserFrom(tokens.accessToken.payload, tokens.idToken?.payload);
};

/** The API token: the ACCESS token, whose `cognito:groups` the API authorizes on. */
export const accessToken = async (): Promise<string | undefined> => {
  try {
    return (await fetchAuthSession()).tokens?.accessToken.toString();
  } catch {
    // A failed refresh means no valid session: the call goes out as a guest and its 401 ends the session.
    return undefined;
  }
};

export const signOutHere = async (): Promise<void> => {
  await signOut();
  try {
    localStorage.setItem(LOGOUT_STORAGE_KEY, String(Date.now()));
  } catch {
    // Storage can be unavailable (private mode, quota); other tabs then notice on their next API call.
  }
};

const expiryListeners = new Set<() => void>();

/** Subscribes to "the API rejected our token"; returns the unsubscribe function. */
export const onSessionExpired = (listener: () => void): (() => void) => {
  expiryListeners.add(listener);
  return () => {
    expiryListeners.delete(listener);
  };
};

export const reportSessionExpired = (): void => {
  for (const listener of expiryListeners) listener();
};
