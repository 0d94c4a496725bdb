import { MESSAGES } from '../../../shared/messages';

/** Who is signed in, as the web app needs it: read from the Cognito tokens, never from a second call. */
export interface SessionUser {
  /** The Cognito `sub`: the id relations and every other area store for a person. */
  id: string;
  username: string;
  email?: string;
  /** `cognito:groups` of the access token: the same claim the API authorizes on. */
  groups: string[];
}

type Claims = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

export const groupsClaim = (claims: Claims): string[] => {
  const groups = claims['cognito:groups'];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
};

/**
 * Builds the user from the access token (sub, groups, username) and, when present, the ID token (e-mail;
 * the access token carries none).
 */
export const sessionUserFrom = (access: Claims, id: Claims | undefined): SessionUser => {
  const email = text(id?.email);
  return {
    id: text(access.sub) ?? '',
    username: text(access.username) ?? text(id?.['cognito:username']) ?? email ?? text(access.sub) ?? '',
    email,
    groups: groupsClaim(access),
  };
};

/** What reading the current session finds (auth.ts `readSession`). */
export type SessionRead = { status: 'guest' } | { status: 'expired' } | { status: 'signed-in'; user: SessionUser };

/**
 * Spec §8: the user info of a session. An expired session logs 'Session is expired. User needs to sign in again.'
 * and, like a guest's, has none (null); the session provider then ends the session and sends the person to sign in.
 */
export const userInfoOf = (
  session: SessionRead,
  log: (message: string) => void = (message) => console.info(message),
): SessionUser | null => {
  if (session.status === 'signed-in') return session.user;
  if (session.status === 'expired') log(MESSAGES.sessionExpired);
  return null;
};
