import { callerOf } from '../../../test/support/callers';
import { Forbidden, NotFound } from '../../_shared/errors';
import type { DataAccessModule } from '../../_shared/sensor-data/data-access';
import { createLocalRealtimeIdentity } from '../store/live-identity';
import { createLive } from './live-watches';
import type { LiveWatchesStore, StoredLiveWatch } from './ports';

const caller = (sub: string) => callerOf(sub, []);

/** An in-memory liveWatches table with the store's rules (a watch is its registering user's). */
const memoryWatches = () => {
  const rows = new Map<string, StoredLiveWatch>();
  const key = (deviceId: string, watcher: string) => `${deviceId}|${watcher}`;
  const store: LiveWatchesStore = {
    put: async (watch) => {
      const existing = rows.get(key(watch.deviceId, watch.watcher));
      if (existing && existing.sub !== watch.sub) return false;
      rows.set(key(watch.deviceId, watch.watcher), watch);
      return true;
    },
    remove: async (deviceId, watcher, sub) => {
      const existing = rows.get(key(deviceId, watcher));
      if (!existing) return 'absent';
      if (existing.sub !== sub) return 'another';
      rows.delete(key(deviceId, watcher));
      return 'removed';
    },
  };
  return { rows, store };
};

const NOW = 1_700_000_000_000;
const visible = new Set(['dev-1']);
const dataAccess: Pick<DataAccessModule, 'resolve'> = {
  resolve: async (_caller, deviceId) => {
    if (deviceId === 'missing') throw new NotFound('no device');
    if (!visible.has(deviceId)) throw new Forbidden('no access');
    return {} as never;
  },
};

const setup = () => {
  const watches = memoryWatches();
  const live = createLive({
    dataAccess,
    identity: createLocalRealtimeIdentity(),
    watches: watches.store,
    envName: 'test',
    now: () => NOW,
  });
  return { live, rows: watches.rows };
};

describe('live watches', () => {
  it('stores an hour-long watch on the caller’s own topic and answers it in ms', async () => {
    const { live, rows } = setup();
    const watch = await live.watch(caller('alice'), 'dev-1', undefined);
    expect(watch).toEqual({
      deviceId: 'dev-1',
      identityId: 'local:alice',
      topic: 'test/identities/local:alice/devices/dev-1/live',
      expiresAt: NOW + 3_600_000,
    });
    expect([...rows.values()]).toEqual([
      { deviceId: 'dev-1', watcher: 'local:alice', sub: 'alice', topic: watch.topic, expiresAt: NOW / 1000 + 3600 },
    ]);
  });

  it('refuses what the data access refuses, storing nothing', async () => {
    const { live, rows } = setup();
    await expect(live.watch(caller('alice'), 'dev-2', undefined)).rejects.toBeInstanceOf(Forbidden);
    await expect(live.watch(caller('alice'), 'missing', undefined)).rejects.toBeInstanceOf(NotFound);
    expect(rows.size).toBe(0);
  });

  it('ends only the caller’s own watch', async () => {
    const { live, rows } = setup();
    await live.watch(caller('alice'), 'dev-1', undefined);
    await expect(live.unwatch(caller('bob'), 'dev-1', 'local:alice')).rejects.toBeInstanceOf(Forbidden);
    expect(rows.size).toBe(1);
    await live.unwatch(caller('alice'), 'dev-1', 'local:alice');
    expect(rows.size).toBe(0);
    // Ending a watch that is gone (expired, ended in another tab) is not an error.
    await live.unwatch(caller('alice'), 'dev-1', 'local:alice');
  });
});

describe('target policies', () => {
  it('applies only to the caller’s own identity', async () => {
    const { live } = setup();
    expect(await live.targetPolicy(caller('alice'), 'attach', { target: 'local:alice' })).toEqual({
      policyName: 'IoTPolicyForCognito',
      target: 'local:alice',
      applied: 'local',
    });
    await expect(live.targetPolicy(caller('alice'), 'detach', { target: 'local:bob' })).rejects.toBeInstanceOf(
      Forbidden,
    );
  });
});
