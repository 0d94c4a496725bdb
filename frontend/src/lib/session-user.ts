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
