import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { IDP_RESPONSE_PATH } from '../../../shared/auth/demo-identity-provider';
import { FEDERATED_SIGN_IN_TARGET } from './federated-users';
import {
  createPendingFederations,
  FEDERATION_TTL_MS,
  type FederatedIdentity,
  identityOf,
  type PendingFederation,
} from './federation-rules';
import { redirect } from './hosted-pages';
import { type AuthorizeParams, redirectWith, s256 } from './hosted-rules';

/**
 * Federation through the local identity layer (docs/decisions/038-local-demo-identity-provider.md), as Cognito
 * federates to an OIDC provider: `/oauth2/authorize?identity_provider=…` sends the browser to the provider with the
 * layer's own state, nonce and PKCE; `/oauth2/idpresponse` exchanges the provider's code server to server, verifies
 * its ID token, and signs the person into the pool (created, found again, linked or refused:
 * `federated-users.ts`). The web app then gets its code exactly as after the password form.
 */

/** An OIDC provider the layer federates to: its issuer (discovery), and the layer's client there. */
export interface FederationProvider {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The layer's redirect URI at the provider: `{layer}/oauth2/idpresponse`, as Cognito's is. */
  redirectUri: string;
}

type Body = Record<string, unknown>;

interface Tokens {
  AccessToken?: string;
  IdToken?: string;
  RefreshToken?: string;
  ExpiresIn?: number;
}

/** Binds the provider's answer to the browser that was sent there (login CSRF): only Lax, only this path. */
const STATE_COOKIE = 'idp_state';

export class IdTokenRejected extends Error {
  override readonly name = 'IdTokenRejected';
}

/**
 * The provider's ID token, as OIDC Core §3.1.3.7 wants it checked: the signature against its JWKS (RS256), the
 * issuer, the audience (the layer's client id), expiry and the nonce the layer sent with this sign-in.
 */
export const verifyProviderIdToken = async (
  idToken: string,
  { keys, issuer, audience, nonce }: { keys: JWTVerifyGetKey; issuer: string; audience: string; nonce: string },
): Promise<JWTPayload> => {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer,
      audience,
      algorithms: ['RS256'],
      clockTolerance: 5,
      requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
    }));
  } catch (error) {
    throw new IdTokenRejected(`The provider's ID token was refused (${(error as { code?: string }).code ?? error})`);
  }
  if (payload.nonce !== nonce) throw new IdTokenRejected("The provider's ID token belongs to another sign-in (nonce)");
  return payload;
};

export interface FederationDeps {
  /** Straight to cognito-local (the internal target is refused at the layer's front). */
  call: (target: string, body: Body) => Promise<Body>;
  providers: () => readonly FederationProvider[];
  /** Issues the web app's authorization code and redirects to it, as after the password form. */
  finish: (response: ServerResponse, params: AuthorizeParams, tokens: Tokens) => void;
  html: (response: ServerResponse, status: number, message: string) => void;
  now?: () => number;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export const createFederation = (deps: FederationDeps) => {
  const pending = createPendingFederations({ now: deps.now ?? Date.now });
  const discovered = new Map<string, Promise<Discovery & { keys: JWTVerifyGetKey }>>();

  const discover = (provider: FederationProvider) => {
    let found = discovered.get(provider.issuer);
    if (!found) {
      found = (async () => {
        const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
        if (!response.ok) throw new Error(`Discovery at ${provider.issuer} answered ${response.status}`);
        const document = (await response.json()) as Discovery;
        return { ...document, keys: createRemoteJWKSet(new URL(document.jwks_uri)) };
      })();
      discovered.set(provider.issuer, found);
      // Tried again at the next sign-in: the provider may simply not be up yet.
      found.catch(() => discovered.delete(provider.issuer));
    }
    return found;
  };

  const cookieOf = (value: string, maxAgeSeconds: number) =>
    `${STATE_COOKIE}=${value}; Path=${IDP_RESPONSE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
  const clearCookie = cookieOf('', 0);

  /** Whether the web client may name this provider (the authorize check has let it through by name). */
  const providerNamed = (name: string) => deps.providers().find((p) => p.name === name);

  /** The authorize request, checked, goes on to the provider with the layer's own state, nonce and PKCE. */
  const start = async (response: ServerResponse, params: AuthorizeParams, providerName: string) => {
    const provider = providerNamed(providerName);
    if (!provider) {
      return redirect(
        response,
        redirectWith(params.redirectUri, {
          error: 'invalid_request',
          error_description: 'identity_provider is not enabled for this client',
          state: params.state,
        }),
        { 'set-cookie': clearCookie },
      );
    }
    const { authorization_endpoint: endpoint } = await discover(provider);
    const codeVerifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(32).toString('base64url');
    const state = pending.start({ provider: provider.name, params, nonce, codeVerifier });
    const url = redirectWith(endpoint, {
      response_type: 'code',
      client_id: provider.clientId,
      redirect_uri: provider.redirectUri,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: s256(codeVerifier),
      code_challenge_method: 'S256',
    });
    return redirect(response, url, { 'set-cookie': cookieOf(state, FEDERATION_TTL_MS / 1000) });
  };

  /** The web app hears of a failure at its redirect URI, with its own state, as Cognito tells it. */
  const tellClient = (response: ServerResponse, entry: PendingFederation, error: string, description: string) =>
    redirect(
      response,
      redirectWith(entry.params.redirectUri, { error, error_description: description, state: entry.params.state }),
      { 'set-cookie': clearCookie },
    );

  const exchange = async (provider: FederationProvider, entry: PendingFederation, code: string) => {
    const { token_endpoint: endpoint, keys } = await discover(provider);
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: provider.redirectUri,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        code_verifier: entry.codeVerifier,
      }),
    });
    const body = (await answer.json().catch(() => ({}))) as { id_token?: string; error?: string };
    if (!answer.ok || typeof body.id_token !== 'string') {
      throw new IdTokenRejected(`The provider refused the code (${body.error ?? answer.status})`);
    }
    return verifyProviderIdToken(body.id_token, {
      keys,
      issuer: provider.issuer,
      audience: provider.clientId,
      nonce: entry.nonce,
    });
  };

  const respond = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    if (request.method !== 'GET') return deps.html(response, 405, 'Method not allowed.');
    const state = url.searchParams.get('state') ?? '';
    // Spent by any answer that names it: a state is good once.
    const entry = state ? pending.take(state) : undefined;
    if (!entry) return deps.html(response, 400, 'This sign-in is unknown or has expired. Start again from the app.');
    const cookie = (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === STATE_COOKIE)?.[1];
    if (cookie !== state) {
      return deps.html(response, 400, 'This sign-in was started in another browser. Start again from the app.');
    }
    const provider = providerNamed(entry.provider);
    if (!provider) return tellClient(response, entry, 'invalid_request', 'The identity provider is not enabled');
    const providerError = url.searchParams.get('error');
    if (providerError) {
      return tellClient(
        response,
        entry,
        'access_denied',
        url.searchParams.get('error_description') ?? `The identity provider answered ${providerError}`,
      );
    }
    const code = url.searchParams.get('code');
    if (!code) return tellClient(response, entry, 'invalid_request', 'The identity provider sent no code');
    let identity: FederatedIdentity | undefined;
    try {
      identity = identityOf(provider.name, (await exchange(provider, entry, code)) as Record<string, unknown>);
    } catch (error) {
      if (!(error instanceof IdTokenRejected)) throw error;
      return tellClient(response, entry, 'invalid_request', error.message);
    }
    if (!identity) {
      return tellClient(response, entry, 'invalid_request', 'The identity provider shared no e-mail address');
    }
    let result: Body;
    try {
      result = await deps.call(FEDERATED_SIGN_IN_TARGET, { ClientId: entry.params.clientId, Identity: identity });
    } catch (error) {
      const { status, message } = error as { status?: number; message?: string };
      if ((status ?? 500) >= 500) throw error;
      // A disabled user, in Cognito's words.
      return tellClient(response, entry, 'access_denied', message ?? 'Sign-in was refused');
    }
    const refused = result.Refused as { Message?: string } | undefined;
    if (refused) return tellClient(response, entry, 'access_denied', refused.Message ?? 'Sign-in was refused');
    response.setHeader('set-cookie', clearCookie);
    return deps.finish(response, entry.params, result.AuthenticationResult as Tokens);
  };

  return {
    start,
    respond,
    pendingCount: () => pending.size(),
  };
};
