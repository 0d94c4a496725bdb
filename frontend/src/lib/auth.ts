import type { AuthTokens, SignInInput } from 'aws-amplify/auth';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { runtimeConfig } from './runtime-config';
import { clearSessionStart, readSessionStart } from './session-cookie';
import { sessionVerdict } from './session-rules';
import { type SessionRead, sessionUserFrom } from './session-user';
import { sharedWhileUnderWay } from './shared-read';
import { freshStoredTokens, TOKEN_COOKIE_PREFIX } from './stored-tokens';

export type { SessionRead } from './session-user';

/** Written on sign-out; other tabs see the `storage` event and end their session too (spec §2). */
export const LOGOUT_STORAGE_KEY = 'ddp.logout-at';

type AmplifyAuth = typeof import('./amplify-auth');
/** What an Amplify `auth` Hub listener receives, reduced to what the session reads. */
export type AuthEvent = { payload: { event: string } };

let resolveConfig: (config: RuntimeConfig) => void;
const configured = new Promise<RuntimeConfig>((resolve) => {
  resolveConfig = resolve;
});
let loading: Promise<AmplifyAuth> | undefined;
const authListeners = new Set<(event: AuthEvent) => void>();

/**
 * Amplify Auth, loaded and configured on first need (issue 13: about 20 kB of the first page's JS). Pages that
 * call Amplify themselves (the Authenticator, account security) wait for it in their route.
 */
export const amplifyAuth = (): Promise<AmplifyAuth> => {
  loading ??= Promise.all([import('./amplify-auth'), configured]).then(([amplify, config]) => {
    amplify.configure(config);
    amplify.Hub.listen('auth', ({ payload }) => emitAuthEvent(payload.event));
    return amplify;
  });
  return loading;
};

/** Whether this browser holds Amplify's token cookies (of any client: a false yes only loads more than needed). */
export const holdsTokens = (): boolean =>
  document.cookie.split(';').some((cookie) => cookie.trimStart().startsWith(TOKEN_COOKIE_PREFIX));

/** Without tokens nothing can be read or refreshed: the caller is a guest, and Amplify need not load. */
const mayHaveSession = (): boolean => loading !== undefined || holdsTokens();

/** This environment's app client, whose token cookies are read (set with the runtime configuration). */
let clientId: string | undefined;

/** The stored tokens while they are fresh, read without Amplify (stored-tokens.ts); undefined: ask Amplify. */
const storedTokens = (): AuthTokens | undefined =>
  clientId ? freshStoredTokens(document.cookie, clientId, Date.now()) : undefined;

/**
 * Takes the runtime configuration for Amplify Auth. A browser holding tokens that need a refresh loads Amplify at
 * once, beside the page's own chunks. Otherwise it loads when something needs it: a page that calls it (the sign-in
 * forms, account security), the first token read that finds the stored tokens near their expiry (Amplify refreshes
 * them), a sign-out. Its events (sign-in, refresh, sign-out) only ever follow its own calls.
 */
export const configureAuth = (config: RuntimeConfig): void => {
  clientId = config.auth.userPoolClientId;
  resolveConfig(config);
  if (holdsTokens() && !storedTokens()) void amplifyAuth();
};

/** Amplify's `auth` Hub events (sign-in, token refresh, sign-out), once Amplify has loaded; returns the unsubscribe. */
export const onAuthEvent = (listener: (event: AuthEvent) => void): (() => void) => {
  authListeners.add(listener);
  return () => {
    authListeners.delete(listener);
  };
};

/** The auth flow of this environment: USER_PASSWORD_AUTH locally (cognito-local has no SRP), SRP in the cloud. */
export const authFlowType = (): NonNullable<NonNullable<SignInInput['options']>['authFlowType']> =>
  runtimeConfig().auth.authFlowType;

/**
 * The current tokens (Amplify refreshes expired ones), and whether a refresh failed on the way. When the
 * refresh token is refused (revoked by a global sign-out, expired, user disabled) Amplify clears the tokens
 * and answers as it would for a guest; its `tokenRefresh_failure` event, dispatched synchronously during the
 * call, is the only sign that there was a session.
 */
const fetchTokens = async () => {
  const stored = storedTokens();
  if (stored) return { tokens: stored, refreshFailed: false };
  const { fetchAuthSession, Hub } = await amplifyAuth();
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
 * The token read the session and the API calls under way share. Amplify reads and decodes its cookies on every call
 * (about 20 ms of a phone's CPU each, issue 36), and a screen starts its twenty reads at once: they now wait on one.
 * Stored tokens near their expiry are refreshed once, not once by the session's read and again by the first call's.
 * A call made once it has answered reads anew, and an auth event (sign-in, refresh, sign-out) drops it, so no call
 * made after the event gets the tokens from before it.
 */
const tokenRead = sharedWhileUnderWay(fetchTokens);

/**
 * The signed-in user from the current tokens (refreshed by Amplify when needed). Tokens without a live
 * session cookie (gone, or older than 7 days), and tokens that could not be refreshed, are an expired
 * session (spec §2, §8, §9): the user is sent to sign in again with the reason, not left a silent guest.
 */
export const readSession = async (now = Date.now()): Promise<SessionRead> => {
  if (!mayHaveSession()) return { status: 'guest' };
  const { tokens, refreshFailed } = await tokenRead.get();
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

/**
 * A sign-out here is under way: the tokens stay stored until the identity provider has answered RevokeToken, while
 * the page, drawn anew for the guest at once, reads as the guest. With the person's token, a private device's page
 * came back showing the device to the guest.
 */
let signingOut = false;

/** The API token: the ACCESS token, whose `cognito:groups` the API authorizes on. */
export const accessToken = async (): Promise<string | undefined> => {
  if (signingOut || !mayHaveSession()) return undefined;
  try {
    const { tokens } = await tokenRead.get();
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

/**
 * The ID token (in the cloud the API finds the caller's Cognito identity with it), from the same shared read as the
 * access token: stored and fresh, it is read without Amplify.
 */
export const idToken = async (): Promise<string | undefined> => {
  if (signingOut || !mayHaveSession()) return undefined;
  try {
    return (await tokenRead.get()).tokens?.idToken?.toString();
  } catch {
    return undefined;
  }
};

/** Tells the session what Amplify's Hub would, for a sign-in Amplify did not make itself (the hosted one). */
export const emitAuthEvent = (event: string): void => {
  tokenRead.drop();
  for (const listener of authListeners) listener({ payload: { event } });
};

/** Clears this browser's tokens (Amplify's local sign-out), telling no other tab. */
export const forgetStoredTokens = async (): Promise<void> => {
  if (!mayHaveSession()) return;
  const { signOut, takeHostedLogout } = await amplifyAuth();
  takeHostedLogout();
  await signOut();
};

/** Tells the other tabs that this browser signed out (they share the token cookies). */
export const announceSignOut = (): void => {
  try {
    localStorage.setItem(LOGOUT_STORAGE_KEY, String(Date.now()));
  } catch {
    // Storage can be unavailable (private mode, quota); other tabs then notice on their next API call.
  }
};

/** How long a sign-out waits for the work that must still run as the person (`onSignOut`). */
const FAREWELL_WAIT_MS = 1_500;

const signOutTasks = new Set<(token: string) => Promise<unknown>>();

/**
 * Work that must still run as the person when they sign out here, e.g. stopping a live watch: it gets their token,
 * since from the sign-out on every other call goes out as the guest's. Returns the unsubscribe function.
 */
export const onSignOut = (task: (token: string) => Promise<unknown>): (() => void) => {
  signOutTasks.add(task);
  return () => {
    signOutTasks.delete(task);
  };
};

/** Whether a sign-out here is under way (its calls go out as the guest's). */
export const isSigningOut = (): boolean => signingOut;

/**
 * Signs out here (and with `global`, revokes the refresh token everywhere) and tells the other tabs. A session from
 * the hosted sign-in then leaves through the hosted logout, which ends the hosted page's session and comes back to
 * the sign-in page. From the call on, before its first await, API calls go out as the guest's.
 */
export const signOutHere = async (options?: { global?: boolean }): Promise<void> => {
  // Both taken before `signingOut` is set and before the page, drawn for the guest, unmounts what registered them:
  // accessToken checks `signingOut` synchronously, so it still answers the person's token.
  const tasks = [...signOutTasks];
  const token = accessToken();
  signingOut = true;
  const farewells = token.then((held) => (held ? Promise.allSettled(tasks.map((task) => task(held))) : undefined));
  let logout: string | undefined;
  try {
    await Promise.race([farewells, new Promise((resolve) => setTimeout(resolve, FAREWELL_WAIT_MS))]);
    const { signOut, takeHostedLogout } = await amplifyAuth();
    logout = takeHostedLogout();
    await signOut(options?.global ? { global: true } : undefined);
  } finally {
    clearSessionStart();
    announceSignOut();
    signingOut = false;
  }
  if (logout) window.location.assign(logout);
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
