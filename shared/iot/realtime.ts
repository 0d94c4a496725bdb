import { topicLabel } from './topics';

/** Spec §9: the IoT policy attached to a signed-in user's Cognito identity (infra and functions share the name). */
export const REALTIME_POLICY_NAME = 'IoTPolicyForCognito';

/** How long a live watch lasts before the browser must renew it (s). */
export const LIVE_WATCH_SECONDS = 60 * 60;

/**
 * Locally there is no identity pool: a signed-in user's realtime identity is `local:{sub}` (the MQTT username the
 * local broker accepts together with the user's access token).
 */
export const LOCAL_IDENTITY_PREFIX = 'local:';
export const localIdentityId = (sub: string): string => `${LOCAL_IDENTITY_PREFIX}${sub}`;

/**
 * Where the platform sends a device's readings for one watcher: `{env}/identities/{identityId}/devices/{deviceId}/live`.
 * A browser may read only its own identity's topics (the IoT policy in the cloud, the broker's check locally), so
 * what reaches it is only what the API chose to send it after checking its access.
 */
export const watcherTopic = (env: string, identityId: unknown, deviceId: unknown): string =>
  `${topicLabel(env, 'environment')}/identities/${topicLabel(identityId, 'identity id')}/devices/${topicLabel(
    deviceId,
    'device id',
  )}/live`;

/** The parts of a concrete watcher topic, or undefined when the topic is not one (wildcards are not). */
export const parseWatcherTopic = (topic: string): { env: string; identityId: string; deviceId: string } | undefined => {
  const match = /^([^/+#]+)\/identities\/([^/+#]+)\/devices\/([^/+#]+)\/live$/.exec(topic);
  if (!match) return undefined;
  const [, env, identityId, deviceId] = match as unknown as [string, string, string, string];
  return { env, identityId, deviceId };
};
