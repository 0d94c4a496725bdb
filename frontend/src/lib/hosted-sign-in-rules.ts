import { federatedRefusalOf } from '../../../shared/auth/federated-sign-in';
import { HOSTED_ENDPOINTS } from '../../../shared/auth/hosted-sign-in';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { safeDestination } from './navigation';

/**
 * The web app's side of the hosted sign-in (spec §7, issue 21) as pure rules: the authorize and logout URLs, and
 * what a callback means. No browser globals, so the unit tests run them in node; lib/hosted-sign-in.ts does the
 * redirects, the storage and the token exchange (docs/decisions/036-web-app-hosted-sign-in.md).
 */

/**
 * The hosted sign-in's wording. Not in ui-messages.ts: that module is in every page's first JS, and these are read
 * on the login and callback pages only (the guest dashboard's budget, test/support/web-budgets.ts).
 */
export const HOSTED_MESSAGES = {
  signInElsewhere: 'Other ways to sign in',
  useHostedPage: 'Use the hosted sign-in page',
  signInWith: (label: string) => `Sign in with ${label}`,
  hostedSignInFailed: 'The sign-in did not complete. Please try again.',
  hostedSignInNotStarted: 'This sign-in was not started in this tab or has already been used. Please sign in again.',
} as const;

export type HostedConfig = NonNullable<RuntimeConfig['auth']['oauth']>;

/** What the tab keeps between leaving for the hosted page and coming back (sessionStorage: this tab only). */
export interface PendingSignIn {
  state: string;
  verifier: string;
  destination: string;
  /** Which URL the code was asked for: the token request must name the same one. */
  redirectUri: string;
}

/** The callback or sign-out URL the client allows on this page's own origin (Amplify's rule), if any. */
export const urlOnOrigin = (urls: readonly string[], origin: string): string | undefined =>
  urls.find((url) => new URL(url).origin === origin);

/**
 * `GET {origin}/oauth2/authorize` for the code grant with PKCE (S256); `provider` picks an identity provider
 * (`identity_provider=NorthsideAir`), none the hosted page's own e-mail and password form.
 */
export const authorizeUrl = (input: {
  config: HostedConfig;
  clientId: string;
  redirectUri: string;
  state: string;
  challenge: string;
  provider?: string;
}): string => {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.config.scopes.join(' '),
    state: input.state,
    code_challenge: input.challenge,
    code_challenge_method: 'S256',
  });
  if (input.provider) params.set('identity_provider', input.provider);
  return `${input.config.origin}${HOSTED_ENDPOINTS.authorize}?${params}`;
};

/** `GET {origin}/logout`: the hosted session ends and the browser comes back to this origin's sign-out URL. */
export const logoutUrl = (config: HostedConfig, clientId: string, origin: string): string | undefined => {
  const signOutUrl = urlOnOrigin(config.redirectSignOut, origin);
  if (!signOutUrl) return undefined;
  return `${config.origin}${HOSTED_ENDPOINTS.logout}?${new URLSearchParams({ client_id: clientId, logout_uri: signOutUrl })}`;
};

export type CallbackOutcome =
  | { kind: 'exchange'; code: string; pending: PendingSignIn }
  | { kind: 'refused'; message: string };

/**
 * What `/auth/callback?…` asks for. An error from the hosted side is shown in its own words when it gives some
 * (the linking rule's refusal arrives as `error_description`); a state that is not the one this tab sent (an
 * altered state, a callback this tab never started, a second use) exchanges nothing (RFC 6749 §10.12).
 */
export const callbackOutcome = (search: string, pending: PendingSignIn | undefined): CallbackOutcome => {
  const params = new URLSearchParams(search);
  const error = params.get('error');
  const state = params.get('state');
  const stateMatches = pending !== undefined && state === pending.state;
  if (error) {
    const description = params.get('error_description');
    // Only a callback of our own request may put its words on the page: anyone can link to /auth/callback?error=….
    if (!stateMatches || !description) return { kind: 'refused', message: HOSTED_MESSAGES.hostedSignInFailed };
    // Cognito wraps the linking rule's refusal as `PreSignUp failed with error {message}.`: the message alone is shown.
    return { kind: 'refused', message: federatedRefusalOf(description) ?? description };
  }
  const code = params.get('code');
  if (!code || !stateMatches) return { kind: 'refused', message: HOSTED_MESSAGES.hostedSignInNotStarted };
  return { kind: 'exchange', code, pending: { ...pending, destination: safeDestination(pending.destination) } };
};

/** The token endpoint's answer, as RFC 6749 §5.1 names it. */
export interface HostedTokens {
  access_token: string;
  id_token?: string;
  refresh_token?: string;
}

/** A token answer with an access token, else the refusal (§5.2's `error`) to show. */
export const tokensOf = (status: number, body: unknown): HostedTokens | { error: string } => {
  const answer = (body ?? {}) as Partial<HostedTokens> & { error?: unknown };
  if (status === 200 && typeof answer.access_token === 'string') return answer as HostedTokens;
  return { error: typeof answer.error === 'string' ? answer.error : `HTTP ${status}` };
};
