import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Cognito revokes every token of a user on GlobalSignOut / AdminUserGlobalSignOut; cognito-local has neither
 * call. We record when each user signed out everywhere and refuse tokens issued before it.
 *
 * Tokens carry `iat` in whole seconds, so "before" needs care: a token issued in the same second as the
 * sign-out cannot be told apart from one issued just after it. The rule: a token is revoked when it was issued
 * in or before the second of the sign-out, and the sign-out answers only once that second is over
 * (`signOutSettledAt`), so a sign-in that follows the answer gets a token from a later second.
 */
export const tokenRevoked = (issuedAtSeconds: number, signedOutAt: number | undefined): boolean =>
  signedOutAt !== undefined && issuedAtSeconds <= Math.floor(signedOutAt / 1000);

/** When (ms) tokens issued from then on are after the sign-out at `signedOutAt`: the start of the next second. */
export const signOutSettledAt = (signedOutAt: number): number => (Math.floor(signedOutAt / 1000) + 1) * 1000;

export interface SignOutRegistry {
  /** When the user (cognito-local's Username) last signed out everywhere (ms), if ever. */
  signedOutAt: (username: string) => number | undefined;
  record: (username: string, at: number) => Promise<void>;
}

/**
 * The registry, kept in a JSON file so a restart keeps it. It must not sit beside cognito-local's own files:
 * cognito-local takes every `*.json` file of its data directory for a user pool.
 */
export const createSignOutRegistry = async (file: string): Promise<SignOutRegistry> => {
  await mkdir(path.dirname(file), { recursive: true });
  let entries: Record<string, number> = {};
  try {
    entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Writes are chained so two sign-outs at once cannot interleave their renames; a failed write fails its
  // own sign-out only.
  let writing: Promise<unknown> = Promise.resolve();
  return {
    signedOutAt: (username) => entries[username],
    record: (username, at) => {
      entries = { ...entries, [username]: Math.max(at, entries[username] ?? 0) };
      const snapshot = `${JSON.stringify(entries, null, 2)}\n`;
      const written = writing.then(async () => {
        await writeFile(`${file}.tmp`, snapshot);
        await rename(`${file}.tmp`, file);
      });
      writing = written.catch(() => undefined);
      return written;
    },
  };
};
