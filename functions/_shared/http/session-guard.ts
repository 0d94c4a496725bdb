import type { Caller } from '../../../shared/auth/verify-token';
import { MESSAGES } from '../../../shared/messages';
import { type AccessVersionStore, createAccessVersionStore, type UserSession } from '../access/access-version-store';
import { getDocumentClient } from '../clients';
import { readEnv } from '../env';
import { Unauthorized } from '../errors';

/** Checks a verified caller against the API's own session state; returns the caller the request runs as. */
export type SessionGuard = (caller: Caller) => Promise<Caller>;

/**
 * ARCHITECTURE.md §1: the API is the authority on sessions. A valid signature is not enough:
 * - a disabled user's tokens are refused at once (the identity provider would honour them until expiry);
 * - tokens authenticated before the user's last global sign-out are refused. `auth_time` is whole seconds,
 *   so a sign-in within the same second as the sign-out is still accepted;
 * - tokens issued before the user's groups last changed carry stale `cognito:groups`: the record's groups
 *   replace them, so a removed role ends on the next request, not when the token expires.
 */
export const checkSession = (caller: Caller, session: UserSession): Caller => {
  if (session.disabled) throw new Unauthorized(MESSAGES.accountDisabled);
  if (caller.authTime < Math.floor(session.signedOutAt / 1000)) throw new Unauthorized(MESSAGES.sessionSignedOut);
  const staleGroups = session.groups !== undefined && caller.issuedAt * 1000 < session.groupsChangedAt;
  return {
    ...caller,
    ...(staleGroups ? { groups: session.groups } : {}),
    accessVersion: { version: session.version, changedAt: session.changedAt },
  };
};

export const createSessionGuard = (
  sessions: Pick<AccessVersionStore, 'get'> = createAccessVersionStore({
    db: getDocumentClient(),
    tableName: readEnv({ table: 'ACCESS_VERSIONS_TABLE' }).table,
  }),
): SessionGuard => {
  return async (caller) => checkSession(caller, await sessions.get(caller.sub));
};
