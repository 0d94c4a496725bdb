import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { HOSTED_SCOPES, hostedUrlsOf } from '../../../shared/auth/hosted-sign-in';

/**
 * The pure rules of the local hosted sign-in (`hosted-sign-in.ts`): which client and redirect URIs are allowed,
 * what an authorize request must carry, PKCE, and the authorization codes. No HTTP here, so each rule is
 * unit-tested on its own (docs/decisions/035-local-hosted-sign-in.md).
 */

/** Cognito's authorization codes live 5 minutes. */
export const CODE_TTL_MS = 5 * 60_000;

/** The local pool's web client as the hosted endpoints see it. */
export interface HostedClient {
  clientId: string;
  /** Exact callback URLs (`{origin}/auth/callback`). */
  callbackUrls: readonly string[];
  /** Exact sign-out URLs (`{origin}/login`). */
  signOutUrls: readonly string[];
  /** The origins of both lists, for the sign-in page's `form-action` (it redirects there after the POST). */
  origins: readonly string[];
}

/** The client's lists from its web origins, as the CDK derives them from the environment's web domain. */
export const hostedClientOf = (clientId: string, webOrigins: readonly string[]): HostedClient => {
  const origins = [...new Set(webOrigins.map((origin) => origin.replace(/\/$/, '')))];
  return {
    clientId,
    callbackUrls: origins.map((origin) => hostedUrlsOf(origin).callbackUrl),
    signOutUrls: origins.map((origin) => hostedUrlsOf(origin).signOutUrl),
    origins,
  };
};

/** Exact string match, as Cognito matches callback and sign-out URLs: no prefix, no normalisation. */
export const onList = (url: unknown, list: readonly string[]): url is string =>
  typeof url === 'string' && list.includes(url);

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. The challenge (S256) has the same shape. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
export const pkceMatches = (verifier: unknown, challenge: string): boolean => {
  if (typeof verifier !== 'string' || !PKCE_VALUE.test(verifier)) return false;
  const expected = Buffer.from(challenge);
  const actual = Buffer.from(s256(verifier));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
};

export type AuthorizeError = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope';

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string;
  scopes: string[];
  codeChallenge: string;
  /** An identity provider other than the pool itself (`identity_provider`), to federate to. */
  identityProvider?: string;
}

export type AuthorizeCheck =
  /** Never redirected to: an unknown client or a redirect URI not on its list gets an error page. */
  | { kind: 'page'; message: string }
  /** Told to the client at its (listed) redirect URI, with the state when there is one. */
  | { kind: 'redirect'; redirectUri: string; error: AuthorizeError; description: string; state?: string }
  | { kind: 'ok'; params: AuthorizeParams };

const one = (query: URLSearchParams, name: string) => {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : undefined;
};

/**
 * An authorize request (GET, or the sign-in form's POST carrying the same fields back: they are checked again,
 * never trusted). The client and the redirect URI come first: only once both are known good is anything sent there.
 */
export const checkAuthorize = (
  query: URLSearchParams,
  client: HostedClient | undefined,
  /** The identity providers enabled for the client, besides `COGNITO` (the pool's own users). */
  providers: readonly string[] = [],
): AuthorizeCheck => {
  const clientId = one(query, 'client_id');
  if (!client || clientId !== client.clientId) return { kind: 'page', message: 'Invalid client.' };
  const redirectUri = one(query, 'redirect_uri');
  if (!onList(redirectUri, client.callbackUrls)) {
    return { kind: 'page', message: 'The redirect URI is not on the client’s list of callback URLs.' };
  }
  const state = one(query, 'state');
  const refuse = (error: AuthorizeError, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    ...(state ? { state } : {}),
  });
  const responseType = one(query, 'response_type');
  if (!responseType) return refuse('invalid_request', 'response_type is required');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'Only the code grant is allowed');
  // The web client keeps state to tie the callback to its own request; a request without it cannot be checked.
  if (!state) return refuse('invalid_request', 'state is required');
  const codeChallenge = one(query, 'code_challenge');
  // A public client: PKCE with S256 is required (plain would give the verifier away).
  if (one(query, 'code_challenge_method') !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256');
  }
  if (!codeChallenge || !PKCE_VALUE.test(codeChallenge)) return refuse('invalid_request', 'code_challenge is required');
  const scope = one(query, 'scope');
  // Without a scope Cognito grants the client's allowed scopes.
  const scopes = scope === undefined ? [...HOSTED_SCOPES] : scope.split(' ').filter(Boolean);
  if (!scopes.length || scopes.some((s) => !(HOSTED_SCOPES as readonly string[]).includes(s))) {
    return refuse('invalid_scope', 'Scopes must be among openid email profile');
  }
  const provider = one(query, 'identity_provider');
  // The pool's own users, or a provider enabled for the client (federation.ts); names are case-sensitive, as Cognito's.
  if (provider !== undefined && provider !== 'COGNITO' && !providers.includes(provider)) {
    return refuse('invalid_request', 'identity_provider is not enabled for this client');
  }
  const params = { clientId, redirectUri, state, scopes: [...new Set(scopes)], codeChallenge };
  return {
    kind: 'ok',
    params: provider !== undefined && provider !== 'COGNITO' ? { ...params, identityProvider: provider } : params,
  };
};

/** `redirect_uri?code=…&state=…` or `redirect_uri?error=…&state=…`: the redirect URI's own query is kept. */
export const redirectWith = (redirectUri: string, params: Record<string, string | undefined>) => {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
};

export interface CodeGrant<T> {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  tokens: T;
}

/**
 * Authorization codes: random (256 bits), single-use, `ttlMs` long, bound to the client, redirect URI, PKCE challenge
 * and the tokens of the sign-in. Kept in memory: a restart of `npm start` forgets the codes in flight, which costs a
 * person one more sign-in at most.
 */
export const createCodeStore = <T>({
  ttlMs = CODE_TTL_MS,
  now = Date.now,
}: {
  ttlMs?: number;
  now?: () => number;
} = {}) => {
  const codes = new Map<string, CodeGrant<T> & { expiresAt: number }>();
  const purge = () => {
    for (const [code, grant] of codes) if (grant.expiresAt <= now()) codes.delete(code);
  };
  return {
    issue: (grant: CodeGrant<T>): string => {
      purge();
      const code = randomBytes(32).toString('base64url');
      codes.set(code, { ...grant, expiresAt: now() + ttlMs });
      return code;
    },
    /** The code's grant, once: it is gone after this call, whether it was still good or not. */
    redeem: (code: string): CodeGrant<T> | undefined => {
      const grant = codes.get(code);
      codes.delete(code);
      return grant && grant.expiresAt > now() ? grant : undefined;
    },
    size: () => codes.size,
  };
};
