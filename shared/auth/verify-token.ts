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
 */
export const createTokenVerifier = (options: TokenVerifierOptions) => {
  const keys =
    options.keys ?? createRemoteJWKSet(new URL(options.jwksUri ?? `${options.issuer}/.well-known/jwks.json`));
  const clientIds = new Set(options.clientIds);
  const tolerance = options.clockToleranceSeconds ?? 5;

  return async (token: string): Promise<Caller> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        algorithms: ['RS256'],
        clockTolerance: tolerance,
        requiredClaims: ['exp', 'iat', 'sub', 'token_use'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new TokenRejected('Token expired');
      if (error instanceof joseErrors.JOSEError) throw new TokenRejected(`Token rejected: ${error.code}`);
      throw error;
    }

    // jose checks `exp` and `nbf` but not `iat`: a token from the future was minted by a broken or hostile clock,
    // and would outlive a global sign-out (its auth_time compared later than the sign-out).
    const latest = Math.floor(Date.now() / 1000) + tolerance;
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
    return {
      sub: payload.sub!,
      username: claimString(payload, 'cognito:username') ?? claimString(payload, 'username') ?? payload.sub!,
      email: claimString(payload, 'email'),
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
      tokenUse,
      issuedAt: payload.iat!,
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : payload.iat!,
    };
  };
};

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;
