import type { IncomingMessage, ServerResponse } from 'node:http';
import { IDP_RESPONSE_PATH } from '../../../shared/auth/demo-identity-provider';
import { HOSTED_ENDPOINTS } from '../../../shared/auth/hosted-sign-in';
import { createFederation, type FederationProvider } from './federation';
import { errorPage, mfaPage, redirect, STYLESHEET, STYLESHEET_PATH, signInPage } from './hosted-pages';
import {
  type AuthorizeCheck,
  type AuthorizeParams,
  CODE_TTL_MS,
  checkAuthorize,
  createCodeStore,
  type HostedClient,
  onList,
  pkceMatches,
  redirectWith,
} from './hosted-rules';
import { signedHere } from './origin-jti';
import { tokenClaims } from './targets';

/**
 * Cognito's hosted endpoints (managed login) on the local identity layer's HTTP front: the authorization-code grant
 * with PKCE for the local web client, a real sign-in page, the form-encoded token exchange, userInfo and the logout
 * redirect (issue 21, docs/decisions/035-local-hosted-sign-in.md). Sign-in goes through the same calls as
 * everything else (InitiateAuth / RespondToAuthChallenge at cognito-local with the layer's targets), so the tokens
 * are the ones the JSON API would have given: `origin_jti`-stamped, refused when revoked or the user is disabled.
 * An authorize request naming an enabled `identity_provider` goes to that provider instead (`federation.ts`,
 * docs/decisions/038-local-demo-identity-provider.md), and ends with a code from the same store.
 */

type Body = Record<string, unknown>;

export interface HostedSignInDeps {
  /** One call to cognito-local through the layer; a refusal is thrown with Cognito's `type` and `message`. */
  call: (target: string, body: Body) => Promise<Body>;
  /** The local pool's web client, once the stack knows it (undefined until then). */
  client: () => HostedClient | undefined;
  /** @default Date.now; the codes' clock (tests move it past the 5 minutes) */
  now?: () => number;
  /** @default CODE_TTL_MS, Cognito's 5 minutes */
  codeTtlMs?: number;
  /** The OIDC providers enabled for the client (`identity_provider`), once they have started; @default none */
  providers?: () => readonly FederationProvider[];
}

interface Tokens {
  AccessToken?: string;
  IdToken?: string;
  RefreshToken?: string;
  ExpiresIn?: number;
}

type TokenError = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

const faultOf = (error: unknown) => {
  const { type, message, status } = error as { type?: string; message?: string; status?: number };
  return { type: type ?? 'InternalErrorException', message: message ?? String(error), status: status ?? 500 };
};

/** The authorize request's fields, carried through the form and checked again on every POST. */
const fieldsOf = (params: AuthorizeParams) => ({
  response_type: 'code',
  client_id: params.clientId,
  redirect_uri: params.redirectUri,
  state: params.state,
  scope: params.scopes.join(' '),
  code_challenge: params.codeChallenge,
  code_challenge_method: 'S256',
});

/** Seconds the access token lives: cognito-local answers no ExpiresIn, so it is read from the token itself. */
const expiresIn = (tokens: Tokens) => {
  if (tokens.ExpiresIn !== undefined) return tokens.ExpiresIn;
  const claims = tokenClaims(tokens.AccessToken) as { exp?: number; iat?: number } | undefined;
  return claims?.exp !== undefined && claims.iat !== undefined ? claims.exp - claims.iat : undefined;
};

const HOSTED_PATHS = new Set<string>([...Object.values(HOSTED_ENDPOINTS), IDP_RESPONSE_PATH, STYLESHEET_PATH]);

export const createHostedSignIn = (deps: HostedSignInDeps) => {
  const codes = createCodeStore<Tokens>({ ttlMs: deps.codeTtlMs ?? CODE_TTL_MS, now: deps.now ?? Date.now });

  const html = (response: ServerResponse, status: number, body: string, client?: HostedClient) =>
    response
      .writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        // No script at all; the form may post here and its answer redirect to the client's origins only.
        'content-security-policy': [
          "default-src 'none'",
          "style-src 'self'",
          "base-uri 'none'",
          "frame-ancestors 'none'",
          `form-action 'self' ${(client?.origins ?? []).join(' ')}`.trim(),
        ].join('; '),
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      })
      .end(body);

  const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string>) =>
    response
      .writeHead(status, {
        ...headers,
        'content-type': 'application/json;charset=UTF-8',
        'cache-control': 'no-store',
        pragma: 'no-cache',
      })
      .end(JSON.stringify(body));

  /** A failed check: an error page (never redirected), or the error at the client's listed redirect URI. */
  const refuse = (response: ServerResponse, check: Exclude<AuthorizeCheck, { kind: 'ok' }>) =>
    check.kind === 'page'
      ? html(response, 400, errorPage(check.message))
      : redirect(
          response,
          redirectWith(check.redirectUri, {
            error: check.error,
            error_description: check.description,
            state: check.state,
          }),
        );

  const finish = (response: ServerResponse, params: AuthorizeParams, tokens: Tokens) => {
    const code = codes.issue({
      clientId: params.clientId,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      scopes: params.scopes,
      tokens,
    });
    // The state goes back exactly as it came; comparing it with the one it sent is the client's check.
    redirect(response, redirectWith(params.redirectUri, { code, state: params.state }));
  };

  const providers = deps.providers ?? (() => []);
  const providerNames = () => providers().map((provider) => provider.name);
  const federation = createFederation({
    call: deps.call,
    providers,
    finish,
    html: (response, status, message) => html(response, status, errorPage(message)),
    now: deps.now,
  });

  /** The sign-in form's POST: password first, then the authenticator code when the person has TOTP on. */
  const signIn = async (response: ServerResponse, form: URLSearchParams, params: AuthorizeParams) => {
    const client = deps.client();
    const action = HOSTED_ENDPOINTS.authorize;
    const fields = fieldsOf(params);
    const session = form.get('session');
    const mfaUsername = form.get('mfa_username');
    if (session && mfaUsername) {
      try {
        const result = await deps.call('RespondToAuthChallenge', {
          ClientId: params.clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: session,
          ChallengeResponses: { USERNAME: mfaUsername, SOFTWARE_TOKEN_MFA_CODE: form.get('mfa_code') ?? '' },
        });
        const tokens = result.AuthenticationResult as Tokens | undefined;
        if (tokens?.AccessToken) return finish(response, params, tokens);
        return html(response, 400, signInPage({ action, fields, error: 'Sign-in could not be finished.' }), client);
      } catch (error) {
        const fault = faultOf(error);
        if (fault.status >= 500) throw error;
        return html(
          response,
          400,
          mfaPage({ action, fields: { ...fields, session, mfa_username: mfaUsername }, error: fault.message }),
          client,
        );
      }
    }
    const email = form.get('username') ?? '';
    const password = form.get('password') ?? '';
    try {
      const result = await deps.call('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: params.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      });
      const tokens = result.AuthenticationResult as Tokens | undefined;
      if (tokens?.AccessToken) return finish(response, params, tokens);
      const parameters = (result.ChallengeParameters ?? {}) as Record<string, string>;
      if (result.ChallengeName === 'SOFTWARE_TOKEN_MFA' && typeof result.Session === 'string') {
        const username = parameters.USER_ID_FOR_SRP ?? parameters.USERNAME ?? email;
        return html(
          response,
          200,
          mfaPage({ action, fields: { ...fields, session: result.Session, mfa_username: username } }),
          client,
        );
      }
      // A new password to choose, SMS or e-mail codes: the app's own sign-in serves those; this page does not.
      return html(
        response,
        400,
        signInPage({
          action,
          fields,
          email,
          error: `This account has a step this page does not offer (${String(result.ChallengeName)}): sign in through the app first.`,
        }),
        client,
      );
    } catch (error) {
      const fault = faultOf(error);
      if (fault.status >= 500) throw error;
      // Cognito's own words: "Incorrect username or password.", "User is disabled.", …
      return html(response, 400, signInPage({ action, fields, email, error: fault.message }), client);
    }
  };

  const authorize = async (request: IncomingMessage, response: ServerResponse, url: URL, raw: Buffer) => {
    const client = deps.client();
    if (request.method === 'GET') {
      const check = checkAuthorize(url.searchParams, client, providerNames());
      if (check.kind !== 'ok') return refuse(response, check);
      if (check.params.identityProvider) return federation.start(response, check.params, check.params.identityProvider);
      return html(
        response,
        200,
        signInPage({ action: HOSTED_ENDPOINTS.authorize, fields: fieldsOf(check.params) }),
        client,
      );
    }
    if (request.method !== 'POST') return html(response, 405, errorPage('Method not allowed.'));
    // The form is ours: a POST from another page (login CSRF) is refused. Browsers always send Origin on a POST.
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && origin !== `http://${request.headers.host}`) {
      return html(response, 403, errorPage('The sign-in form was posted from another site.'));
    }
    if (!isForm(request)) return html(response, 400, errorPage('The sign-in form must be form-encoded.'));
    const form = new URLSearchParams(raw.toString('utf8'));
    const check = checkAuthorize(form, client);
    if (check.kind !== 'ok') return refuse(response, check);
    return signIn(response, form, check.params);
  };

  const token = async (
    request: IncomingMessage,
    response: ServerResponse,
    raw: Buffer,
    cors: Record<string, string>,
  ) => {
    const fail = (error: TokenError, description: string) =>
      json(response, 400, { error, error_description: description }, cors);
    if (request.method !== 'POST') return fail('invalid_request', 'The token endpoint takes POST');
    if (!isForm(request)) return fail('invalid_request', 'The body must be application/x-www-form-urlencoded');
    const form = new URLSearchParams(raw.toString('utf8'));
    const client = deps.client();
    const grantType = form.get('grant_type');
    if (!grantType) return fail('invalid_request', 'grant_type is required');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      return fail('unsupported_grant_type', 'Only authorization_code and refresh_token are allowed');
    }
    const clientId = form.get('client_id');
    if (!clientId) return fail('invalid_request', 'client_id is required');
    if (!client || clientId !== client.clientId) return fail('invalid_client', 'Unknown client');

    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      if (!refreshToken) return fail('invalid_request', 'refresh_token is required');
      try {
        const result = await deps.call('InitiateAuth', {
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: clientId,
          AuthParameters: { REFRESH_TOKEN: refreshToken },
        });
        const tokens = (result.AuthenticationResult ?? {}) as Tokens;
        // Without refresh-token rotation Cognito answers no new refresh token.
        return json(
          response,
          200,
          {
            access_token: tokens.AccessToken,
            id_token: tokens.IdToken,
            token_type: 'Bearer',
            expires_in: expiresIn(tokens),
          },
          cors,
        );
      } catch (error) {
        const fault = faultOf(error);
        if (fault.status >= 500) throw error;
        // Revoked, globally signed out, disabled or unknown: the grant is not good.
        return fail('invalid_grant', fault.message);
      }
    }

    const code = form.get('code');
    const redirectUri = form.get('redirect_uri');
    const verifier = form.get('code_verifier');
    if (!code) return fail('invalid_request', 'code is required');
    if (!redirectUri) return fail('invalid_request', 'redirect_uri is required');
    if (!verifier) return fail('invalid_request', 'code_verifier is required');
    // Spent by this call whatever follows: a code is good once.
    const grant = codes.redeem(code);
    if (!grant) return fail('invalid_grant', 'The code is unknown, used or expired');
    if (grant.clientId !== clientId) return fail('invalid_grant', 'The code was issued to another client');
    if (!onList(redirectUri, [grant.redirectUri])) {
      return fail('invalid_grant', 'redirect_uri differs from the authorize request’s');
    }
    if (!pkceMatches(verifier, grant.codeChallenge)) return fail('invalid_grant', 'The code_verifier does not match');
    return json(
      response,
      200,
      {
        access_token: grant.tokens.AccessToken,
        // As Cognito: an ID token only for the openid scope.
        ...(grant.scopes.includes('openid') ? { id_token: grant.tokens.IdToken } : {}),
        refresh_token: grant.tokens.RefreshToken,
        token_type: 'Bearer',
        expires_in: expiresIn(grant.tokens),
      },
      cors,
    );
  };

  const userInfo = async (request: IncomingMessage, response: ServerResponse, cors: Record<string, string>) => {
    const invalid = () =>
      json(response, 401, { error: 'invalid_token' }, { ...cors, 'www-authenticate': 'Bearer error="invalid_token"' });
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    const accessToken = match?.[1];
    const claims = tokenClaims(accessToken) as Record<string, unknown> | undefined;
    // cognito-local's GetUser only decodes the token: the signature, expiry, use and client are checked here.
    if (
      !accessToken ||
      !signedHere(accessToken, Date.now()) ||
      claims?.token_use !== 'access' ||
      claims.client_id !== deps.client()?.clientId
    ) {
      return invalid();
    }
    let user: Body;
    try {
      // Through the layer's targets: a revoked token (sign-out, global sign-out) or a disabled user is refused.
      user = await deps.call('GetUser', { AccessToken: accessToken });
    } catch (error) {
      if (faultOf(error).status >= 500) throw error;
      return invalid();
    }
    const attributes = Object.fromEntries(
      ((user.UserAttributes ?? []) as { Name: string; Value: string }[]).map((a) => [a.Name, a.Value]),
    );
    const answer: Record<string, string> = {};
    for (const name of ['sub', 'email', 'email_verified', 'given_name', 'family_name']) {
      if (attributes[name] !== undefined) answer[name] = attributes[name];
    }
    // An e-mail nobody verified has no email_verified attribute here; Cognito's userInfo says "false" then.
    if (answer.email !== undefined) answer.email_verified ??= 'false';
    return json(response, 200, { ...answer, username: user.Username }, cors);
  };

  /**
   * Cognito's revocation endpoint (RFC 7009): a refresh token of the client is revoked, and with it every access
   * token it gave (the layer's targets refuse them). 200 with no body; a token that is not one is no error.
   */
  const revoke = async (
    request: IncomingMessage,
    response: ServerResponse,
    raw: Buffer,
    cors: Record<string, string>,
  ) => {
    const fail = (status: number, error: 'invalid_request' | 'invalid_client' | 'unsupported_token_type') =>
      json(response, status, { error }, cors);
    if (request.method !== 'POST' || !isForm(request)) return fail(400, 'invalid_request');
    const form = new URLSearchParams(raw.toString('utf8'));
    const token = form.get('token');
    const clientId = form.get('client_id');
    if (!token) return fail(400, 'invalid_request');
    if (!clientId || clientId !== deps.client()?.clientId) return fail(401, 'invalid_client');
    try {
      await deps.call('RevokeToken', { Token: token, ClientId: clientId });
    } catch (error) {
      const fault = faultOf(error);
      if (fault.status >= 500) throw error;
      if (fault.type === 'UnsupportedTokenTypeException') return fail(400, 'unsupported_token_type');
      // RFC 7009 §2.2: an invalid or unknown token is answered as revoked.
    }
    response.writeHead(200, { ...cors, 'cache-control': 'no-store' }).end();
  };

  const logout = (response: ServerResponse, url: URL) => {
    const client = deps.client();
    const clientId = url.searchParams.get('client_id');
    if (!client || clientId !== client.clientId) return html(response, 400, errorPage('Invalid client.'));
    const logoutUri = url.searchParams.get('logout_uri');
    if (!onList(logoutUri, client.signOutUrls)) {
      return html(response, 400, errorPage('The logout URI is not on the client’s list of sign-out URLs.'));
    }
    // No hosted session is kept (every authorize shows the form), so there is nothing else to end.
    return redirect(response, logoutUri);
  };

  return {
    /** Whether the path is one of the hosted endpoints (everything else is the JSON API). */
    handles: (pathname: string) => HOSTED_PATHS.has(pathname),
    handle: async (
      request: IncomingMessage,
      response: ServerResponse,
      raw: Buffer,
      cors: Record<string, string>,
    ): Promise<unknown> => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      switch (url.pathname) {
        case STYLESHEET_PATH:
          response.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(STYLESHEET);
          return;
        case HOSTED_ENDPOINTS.authorize:
          return authorize(request, response, url, raw);
        case HOSTED_ENDPOINTS.token:
          return token(request, response, raw, cors);
        case HOSTED_ENDPOINTS.userInfo:
          return userInfo(request, response, cors);
        case HOSTED_ENDPOINTS.revoke:
          return revoke(request, response, raw, cors);
        case HOSTED_ENDPOINTS.logout:
          return logout(response, url);
        case IDP_RESPONSE_PATH:
          return federation.respond(request, response, url);
      }
    },
  };
};

const isForm = (request: IncomingMessage) =>
  (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
