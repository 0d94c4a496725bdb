import { HOSTED_ENDPOINTS } from '../../../shared/auth/hosted-sign-in';
import { amplifyAuth, emitAuthEvent } from './auth';
import {
  authorizeUrl,
  type CallbackOutcome,
  callbackOutcome,
  HOSTED_MESSAGES,
  type HostedConfig,
  type HostedTokens,
  logoutUrl,
  type PendingSignIn,
  tokensOf,
  urlOnOrigin,
} from './hosted-sign-in-rules';
import { runtimeConfig } from './runtime-config';

/**
 * The hosted sign-in's browser side: off to `/oauth2/authorize` with a PKCE challenge, back on `/auth/callback`
 * with a code to exchange. Loaded by the login and callback pages only (docs/decisions/036-web-app-hosted-sign-in.md:
 * why not Amplify's signInWithRedirect).
 */

const PENDING_KEY = 'ddp.hosted-sign-in';

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomValue = (): string => base64url(crypto.getRandomValues(new Uint8Array(32)));

const challengeOf = async (verifier: string): Promise<string> =>
  base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));

/** Whether this environment offers the hosted sign-in on this page's origin. */
export const hostedSignIn = () => {
  const { oauth } = runtimeConfig().auth;
  return oauth && urlOnOrigin(oauth.redirectSignIn, window.location.origin) ? oauth : undefined;
};

/** Leaves for the hosted page (`provider`: straight on to that identity provider); back on `/auth/callback`. */
export const startHostedSignIn = async (destination: string, provider?: string): Promise<void> => {
  const config = runtimeConfig().auth.oauth;
  const redirectUri = config && urlOnOrigin(config.redirectSignIn, window.location.origin);
  if (!config || !redirectUri) return;
  const pending: PendingSignIn = { state: randomValue(), verifier: randomValue(), destination, redirectUri };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  window.location.assign(
    authorizeUrl({
      config,
      clientId: runtimeConfig().auth.userPoolClientId,
      redirectUri,
      state: pending.state,
      challenge: await challengeOf(pending.verifier),
      provider,
    }),
  );
};

const takePending = (): PendingSignIn | undefined => {
  const raw = sessionStorage.getItem(PENDING_KEY);
  // One callback per start: a reload or a replayed callback URL finds nothing to finish.
  sessionStorage.removeItem(PENDING_KEY);
  try {
    return raw ? (JSON.parse(raw) as PendingSignIn) : undefined;
  } catch {
    return undefined;
  }
};

const exchange = async (outcome: Extract<CallbackOutcome, { kind: 'exchange' }>): Promise<string> => {
  const config = hostedSignIn();
  if (!config) throw new Error(HOSTED_MESSAGES.hostedSignInFailed);
  const response = await fetch(`${config.origin}${HOSTED_ENDPOINTS.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: runtimeConfig().auth.userPoolClientId,
      code: outcome.code,
      redirect_uri: outcome.pending.redirectUri,
      code_verifier: outcome.pending.verifier,
    }),
  });
  const tokens = tokensOf(response.status, await response.json().catch(() => undefined));
  if ('error' in tokens) throw new Error(HOSTED_MESSAGES.hostedSignInFailed);
  await adoptTokens(config, tokens);
  return outcome.pending.destination;
};

/** The hosted sign-in's tokens become this browser's session, exactly as a password sign-in's do. */
const adoptTokens = async (config: HostedConfig, tokens: HostedTokens): Promise<void> => {
  const { markHostedSession, storeTokens } = await amplifyAuth();
  await storeTokens(tokens);
  markHostedSession(logoutUrl(config, runtimeConfig().auth.userPoolClientId, window.location.origin));
  emitAuthEvent('signedIn');
};

let completing: Promise<string> | undefined;

/**
 * Finishes the sign-in this tab started: the destination to go on to, or an Error whose message the page shows.
 * Once per page load: a code is single-use, and React may run the page's effect twice.
 */
export const completeHostedSignIn = (search: string): Promise<string> => {
  completing ??= (async () => {
    const outcome = callbackOutcome(search, takePending());
    if (outcome.kind === 'refused') throw new Error(outcome.message);
    return exchange(outcome);
  })();
  return completing;
};
