import type { Caller } from '../../../shared/auth/verify-token';
import { MESSAGES } from '../../../shared/messages';
import { type AccessVersionStore, createAccessVersionStore, type UserSession } from '../access/access-version-store';
import { getDocumentClient } from '../clients';
import { readEnv } from '../env';
import { Unauthorized } from '../errors';
import { type KeyRead, NOTHING_AHEAD, type ReadAhead, readTogether } from '../read-ahead';

/**
 * Reads, before the handler runs, the caller's session record and the keys the route reads ahead, in one round trip,
 * and checks the session. Answers the caller the request runs as (none for a guest) and the items read ahead.
 */
export type SessionGuard = (
  caller: Caller | undefined,
  readAhead: readonly KeyRead[],
) => Promise<{ caller: Caller | undefined; ahead: ReadAhead }>;

/**
 * The API is the authority on sessions, and a valid signature is not enough
 * (docs/architecture.md#identity-and-permissions):
 * - a disabled user's tokens are refused at once (the identity provider would honour them until expiry);
 * - tokens authenticated before the user's last global sign-out are refused. `auth_time` is whole seconds, so a
 *   token of the sign-out's own second cannot be told from one issued just before it: it is refused too (fail
 *   closed), and the sign-out answers only once its second is over, so the next sign-in is a later second;
 * - tokens issued before the user's groups last changed carry stale `cognito:groups`: the record's groups
 *   replace them, so a removed role ends on the next request, not when the token expires.
 */
export const checkSession = (caller: Caller, session: UserSession): Caller => {
  if (session.disabled) throw new Unauthorized(MESSAGES.accountDisabled);
  if (session.signedOutAt > 0 && caller.authTime <= Math.floor(session.signedOutAt / 1000)) {
    throw new Unauthorized(MESSAGES.sessionSignedOut);
  }
  const staleGroups = session.groups !== undefined && caller.issuedAt * 1000 < session.groupsChangedAt;
  return {
    ...caller,
    ...(staleGroups ? { groups: session.groups } : {}),
    accessVersion: { version: session.version, changedAt: session.changedAt },
  };
};

export const createSessionGuard = (
  sessions: Pick<AccessVersionStore, 'get' | 'keyRead'> = createAccessVersionStore({
    db: getDocumentClient(),
    tableName: readEnv({ table: 'ACCESS_VERSIONS_TABLE' }).table,
  }),
  read: (reads: readonly KeyRead[]) => Promise<ReadAhead> = (reads) => readTogether(getDocumentClient(), reads),
): SessionGuard => {
  return async (caller, readAhead) => {
    const reads = caller ? [sessions.keyRead(caller.sub), ...readAhead] : readAhead;
    const ahead = reads.length > 0 ? await read(reads) : NOTHING_AHEAD;
    return { caller: caller && checkSession(caller, await sessions.get(caller.sub, ahead)), ahead };
  };
};
