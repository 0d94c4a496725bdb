import type { Caller } from '../../shared/auth/verify-token';

/** A verified caller as the HTTP chain hands it to use cases, for unit tests that need no token. */
export const callerOf = (
  sub: string,
  groups: string[] = ['Authenticated_users'],
  tokenUse: Caller['tokenUse'] = 'access',
): Caller => ({
  sub,
  username: sub,
  groups,
  tokenUse,
  issuedAt: 0,
  authTime: 0,
});
