import { MESSAGES } from '../../../shared/messages';

/** The live view cannot connect here (and why, in words for the page). */
export class RealtimeUnavailable extends Error {
  override readonly name = 'RealtimeUnavailable';
}

/**
 * The realtime endpoint of this environment (the runtime configuration's `realtimeUrl`). Spec §8 words a missing
 * one as the identity library words it for its realtime subscriptions: "No graphql endpoint provided".
 */
export const requireRealtimeUrl = (url: string | undefined): string => {
  if (!url) throw new RealtimeUnavailable(MESSAGES.noGraphqlEndpoint);
  return url;
};

/**
 * What the connection signs in with: the access token locally, the identity pool's credentials of the caller's own
 * identity in the cloud. Without it there is nobody to connect as: spec §8's "No current user", as the identity
 * library says when a subscription finds no signed-in user.
 */
export const requireCurrentUser = <T>(credential: T | undefined): T => {
  if (credential === undefined) throw new RealtimeUnavailable(MESSAGES.noCurrentUser);
  return credential;
};
