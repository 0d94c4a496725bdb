import { Amplify } from 'aws-amplify';
import { fetchAuthSession, type SignInInput, type SignInOutput, signIn, signOut } from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { CookieStorage, Hub } from 'aws-amplify/utils';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { withRetry } from './auth-retry';
import { runtimeConfig } from './runtime-config';
import { clearSessionStart, readSessionStart } from './session-cookie';
import { sessionVerdict, TOKEN_COOKIE_DAYS } from './session-rules';
import { type SessionUser, sessionUserFrom } from './session-user';

/** Written on sign-out; other tabs see the `storage` event and end their session too (spec §2). */
export const LOGOUT_STORAGE_KEY = 'ddp.logout-at';

/**
 * Configures Amplify Auth from the runtime configuration; `userPoolEndpoint` is only set locally. Tokens
 * live in cookies (spec §9: 1 year, path /, same-site and secure as the configuration says), so every tab
 * shares one session.
 */
export const configureAuth = (config: RuntimeConfig): void => {
  const { userPoolId, userPoolClientId, userPoolEndpoint, identityPoolId } = config.auth;
  const userPool = {
    userPoolId,
    userPoolClientId,
    ...(userPoolEndpoint ? { userPoolEndpoint } : {}),
    loginWith: { email: true },
    signUpVerificationMethod: 'code' as const,
    mfa: { status: 'optional' as const, totpEnabled: true, smsEnabled: false },
  };
  // Cloud only: the identity pool's credentials sign the live view's IoT Core connection.
  if (identityPoolId)
    Amplify.configure({ Auth: { Cognito: { ...userPool, identityPoolId, allowGuestAccess: false } } });
  else Amplify.configure({ Auth: { Cognito: userPool } });
  cognitoUserPoolsTokenProvider.setKeyValueStorage(
    new CookieStorage({
      path: '/',
      expires: TOKEN_COOKIE_DAYS,
      sameSite: config.cookies.sameSite,
      secure: config.cookies.secure,
    }),
  );
};

/** The auth flow of this environment: USER_PASSWORD_AUTH locally (cognito-local has no SRP), SRP in the cloud. */
export const authFlowType = (): NonNullable<NonNullable<SignInInput['options']>['authFlowType']> =>
  runtimeConfig().auth.authFlowType;

/** Sign-in with the configured flow, retried on network, throttling and 5xx failures (spec §8). */
export const signInWithPassword = (username: string, password: string): Promise<SignInOutput> =>
  withRetry(() => signIn({ username, password, options: { authFlowType: authFlowType() } }));

export type SessionRead = { status: 'guest' } | { status: 'expired' } | { status: 'signed-in'; user: SessionUser };

/**
 * The current tokens (Amplify refreshes expired ones), and whether a refresh failed on the way. When the
 * refresh token is refused (revoked by a global sign-out, expired, user disabled) Amplify clears the tokens
 * and answers as it would for a guest; its `tokenRefresh_failure` event, dispatched synchronously during the
 * call, is the only sign that there was a session.
 */
const fetchTokens = async () => {
  let refreshFailed = false;
  const stop = Hub.listen('auth', ({ payload }) => {
    if (payload.event === 'tokenRefresh_failure') refreshFailed = true;
  });
  try {
    const { tokens } = await fetchAuthSession();
    return { tokens, refreshFailed };
  } finally {
    stop();
  }
};

/**
 * The signed-in user from the current tokens (refreshed by Amplify when needed). Tokens without a live
 * session cookie (gone, or older than 7 days), and tokens that could not be refreshed, are an expired
 * session (spec §2, §8, §9): the user is sent to sign in again with the reason, not left a silent guest.
 */
export const readSession = async (now = Date.now()): Promise<SessionRead> => {
  const { tokens, refreshFailed } = await fetchTokens();
  const verdict = sessionVerdict({
    hasTokens: Boolean(tokens?.accessToken),
    startedAt: readSessionStart(),
    now,
    refreshFailed,
  });
  if (verdict === 'expired') return { status: 'expired' };
  if (verdict === 'none' || !tokens) return { status: 'guest' };
  return { status: 'signed-in', user: sessionUserFrom(tokens.accessToken.payload, tokens.idToken?.payload) };
};

/** The API token: the ACCESS token, whose `cognito:groups` the API authorizes on. */
export const accessToken = async (): Promise<string | undefined> => {
  try {
    const { tokens } = await fetchAuthSession();
    if (!tokens) return undefined;
    // The session cookie ran out while the page stayed open: end the session instead of calling on.
    if (sessionVerdict({ hasTokens: true, startedAt: readSessionStart(), now: Date.now() }) === 'expired') {
      reportSessionExpired();
      return undefined;
    }
    return tokens.accessToken.toString();
  } catch {
    // A failed refresh means no valid session: the call goes out as a guest and its 401 ends the session.
    return undefined;
  }
};

/** Tells the other tabs that this browser signed out (they share the token cookies). */
export const announceSignOut = (): void => {
  try {
    localStorage.setItem(LOGOUT_STORAGE_KEY, String(Date.now()));
  } catch {
    // Storage can be unavailable (private mode, quota); other tabs then notice on their next API call.
  }
};

/** Signs out here (and with `global`, revokes the refresh token everywhere) and tells the other tabs. */
export const signOutHere = async (options?: { global?: boolean }): Promise<void> => {
  try {
    await signOut(options?.global ? { global: true } : undefined);
  } finally {
    clearSessionStart();
    announceSignOut();
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
