import type { Caller } from '../../../shared/auth/verify-token';
import { LIVE_MESSAGES, type LiveWatch } from '../../../shared/contracts/sensor-data-live';
import { LIVE_WATCH_SECONDS, REALTIME_POLICY_NAME, watcherTopic } from '../../../shared/iot/realtime';
import { Forbidden } from '../../_shared/errors';
import type { DataAccessModule } from '../../_shared/sensor-data/data-access';
import type { LiveWatchesStore, RealtimeIdentity } from './ports';

export interface LiveDeps {
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  identity: RealtimeIdentity;
  watches: LiveWatchesStore;
  /** The environment's name: the first level of every watcher topic (`{env}/identities/…`). */
  envName: string;
  now: () => number;
}

/**
 * The live view's use cases. Watching needs view access to the device, by any route the reads accept (a relation,
 * staff, a campaign, or public data); the tier does not limit it: live is "now", inside every tier's window.
 */
export const createLive = ({ dataAccess, identity, watches, envName, now }: LiveDeps) => ({
  watch: async (caller: Caller, deviceId: string, idToken: string | undefined): Promise<LiveWatch> => {
    await dataAccess.resolve(caller, deviceId);
    const identityId = await identity.identityOf(caller, idToken);
    const topic = watcherTopic(envName, identityId, deviceId);
    const expiresAt = Math.floor(now() / 1000) + LIVE_WATCH_SECONDS;
    if (!(await watches.put({ deviceId, watcher: identityId, topic, expiresAt, sub: caller.sub }))) {
      throw new Forbidden(LIVE_MESSAGES.notYourIdentity);
    }
    return { deviceId, identityId, topic, expiresAt: expiresAt * 1000 };
  },

  unwatch: async (caller: Caller, deviceId: string, identityId: string): Promise<void> => {
    // Refused rather than answered 204 with nothing done: a stranger learns they named another person's watch.
    if ((await watches.remove(deviceId, identityId, caller.sub)) === 'another') {
      throw new Forbidden(LIVE_MESSAGES.notYourWatch);
    }
  },

  /** Spec §7 target policies: only the realtime policy, only onto the caller's own identity. */
  targetPolicy: async (
    caller: Caller,
    change: 'attach' | 'detach',
    { target, idToken }: { target: string; idToken?: string },
  ) => {
    const own = await identity.identityOf(caller, idToken);
    if (target !== own) throw new Forbidden(LIVE_MESSAGES.notYourIdentity);
    const applied = change === 'attach' ? await identity.attach(own) : await identity.detach(own);
    return { policyName: REALTIME_POLICY_NAME, target: own, applied };
  },
});

export type Live = ReturnType<typeof createLive>;
