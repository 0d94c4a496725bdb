import { createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';

/** A signed-in caller, as proven by a verified token. Nothing else in the system names the caller. */
export interface Caller {
  sub: string;
  username: string;
  email?: string;
  groups: string[];
  tokenUse: 'id' | 'access';
  /** Seconds since the epoch, from the token's `iat`. */
  issuedAt: number;
  /**
   * Seconds since the epoch when the person authenticated (`auth_time`; it stays the same across token
   * refreshes in Cognito). Falls back to `iat` for a token without it.
   */
  authTime: number;
  /**
   * Set by the API's session guard from the per-user record it read for this request, so the access
   * module does not read it again.
   */
  accessVersion?: { version: number; changedAt: number };
}

export interface TokenVerifierOptions {
  /** `https://cognito-idp.{region}.amazonaws.com/{poolId}` in the cloud; the local Cognito URL + pool id locally. */
  issuer: string;
  /** App clients whose tokens this API accepts (checked against `aud` of id tokens and `client_id` of access tokens). */
  clientIds: readonly string[];
  /** @default `${issuer}/.well-known/jwks.json` */
  jwksUri?: string;
  /** Injected key source (unit tests use a local key set). @default a cached remote JWKS */
  keys?: JWTVerifyGetKey;
  /** Tolerated clock skew. @default 5 seconds */
  clockToleranceSeconds?: number;
  /** The clock (ms since the epoch). @default Date.now */
  now?: () => number;
  /** How many verified tokens are kept, by their exact text, until they expire. @default 1,000 */
  verifiedTokens?: number;
}

export class TokenRejected extends Error {
  override readonly name = 'TokenRejected';
}

const claimString = (payload: JWTPayload, claim: string): string | undefined => {
  const value = payload[claim];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Verifies a Cognito (or cognito-local) JWT: RS256 signature against the pool's JWKS, issuer, expiry,
 * token use, and the audience (id token) or client id (access token).
 *
 * A token that verified is kept, by its exact text, until it expires (at most `verifiedTokens`, the least recently
 * used dropped first): the same token again skips the RS256 signature, the one check here that costs CPU (about
 * 0.1 ms a token on the bench's machine; docs/decisions/013-read-ahead-with-the-session-record.md).
 * Its expiry is checked on every use: it is the only check whose answer changes with time (a token from the past
 * stays from the past). Whether the session behind it still stands is the session record's to say, read on every
 * request, so a sign-out or a disabled account counts at once as before.
 */
export const createTokenVerifier = (options: TokenVerifierOptions) => {
  const keys =
    options.keys ?? createRemoteJWKSet(new URL(options.jwksUri ?? `${options.issuer}/.well-known/jwks.json`));
  const clientIds = new Set(options.clientIds);
  const tolerance = options.clockToleranceSeconds ?? 5;
  const now = options.now ?? Date.now;
  const keep = options.verifiedTokens ?? 1_000;
  const verified = new Map<string, { caller: Caller; expiresAt: number }>();

  const copyOf = (caller: Caller): Caller => ({ ...caller, groups: [...caller.groups] });

  return async (token: string): Promise<Caller> => {
    const seconds = Math.floor(now() / 1000);
    const known = verified.get(token);
    if (known) {
      verified.delete(token);
      // As jose decides it: expired once `exp` is at or before now less the tolerance.
      if (known.expiresAt <= seconds - tolerance) throw new TokenRejected('Token expired');
      verified.set(token, known);
      return copyOf(known.caller);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        algorithms: ['RS256'],
        clockTolerance: tolerance,
        currentDate: new Date(now()),
        requiredClaims: ['exp', 'iat', 'sub', 'token_use'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new TokenRejected('Token expired');
      if (error instanceof joseErrors.JOSEError) throw new TokenRejected(`Token rejected: ${error.code}`);
      throw error;
    }

    // jose checks `exp` and `nbf` but not `iat`: a token from the future was minted by a broken or hostile clock,
    // and would outlive a global sign-out (its auth_time compared later than the sign-out).
    const latest = seconds + tolerance;
    if (payload.iat! > latest) throw new TokenRejected('Token rejected: issued in the future');
    if (
      typeof payload.auth_time === 'number' &&
      (payload.auth_time > latest || payload.auth_time > payload.iat! + tolerance)
    ) {
      throw new TokenRejected('Token rejected: authenticated in the future');
    }

    const tokenUse = claimString(payload, 'token_use');
    if (tokenUse !== 'id' && tokenUse !== 'access') throw new TokenRejected('Token rejected: wrong token use');

    const client = tokenUse === 'id' ? payload.aud : claimString(payload, 'client_id');
    const clients = Array.isArray(client) ? client : client ? [client] : [];
    if (!clients.some((c) => clientIds.has(c))) throw new TokenRejected('Token rejected: unknown client');

    const groups = payload['cognito:groups'];
    const caller: Caller = {
      sub: payload.sub!,
      username: claimString(payload, 'cognito:username') ?? claimString(payload, 'username') ?? payload.sub!,
      email: claimString(payload, 'email'),
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
      tokenUse,
      issuedAt: payload.iat!,
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : payload.iat!,
    };
    verified.set(token, { caller: copyOf(caller), expiresAt: payload.exp! });
    if (verified.size > keep) verified.delete(verified.keys().next().value!);
    return caller;
  };
};

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
