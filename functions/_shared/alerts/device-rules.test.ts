import type { StoredRule } from './alert-model';
import { createDeviceRules } from './device-rules';

const rule = (id: string, kind: 'device' | 'campaign', targetId: string): StoredRule => ({
  id,
  name: id,
  target: { kind, id: targetId },
  condition: { kind: 'silence' },
  recipients: [],
  enabled: true,
  createdBy: 'u1',
  created: 0,
  updated: 0,
});

const world = () => {
  let clock = 0;
  let generation = 1;
  const reads = { rules: 0, holders: 0, generation: 0 };
  const rules = [rule('r1', 'device', 'd1'), rule('r2', 'campaign', 'c1')];
  /** Targets a webhook taking device.online or device.offline watches. */
  const watched = new Set<string>();
  const cache = createDeviceRules({
    source: {
      enabledOf: async (targets) => {
        reads.rules += 1;
        return rules.filter((r) => targets.some((t) => t.kind === r.target.kind && t.id === r.target.id));
      },
      holders: async (deviceId) => {
        reads.holders += 1;
        return { campaigns: deviceId === 'd1' ? ['c1'] : [], organizations: [] };
      },
      watchesPresence: async (targets) => targets.some((t) => watched.has(`${t.kind}:${t.id}`)),
      generation: async () => {
        reads.generation += 1;
        return generation;
      },
    },
    now: () => clock,
    checkEveryMs: 1_000,
    maxAgeMs: 60_000,
  });
  return {
    cache,
    reads,
    rules,
    watched,
    at: (ms: number) => {
      clock = ms;
    },
    bump: () => {
      generation += 1;
    },
  };
};

describe('a device’s rules, cached per instance', () => {
  it('finds its own and its campaigns’ rules once; a device without a rule then costs a look-up in memory', async () => {
    const w = world();
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(await w.cache.rulesOf('d2')).toEqual([]);
    const before = { ...w.reads };
    for (let i = 0; i < 100; i += 1) {
      await w.cache.rulesOf('d2');
      await w.cache.rulesOf('d1');
    }
    expect(w.reads).toEqual(before);
  });

  it('forgets every device when the generation moves (checked at most once a second), and a device after maxAge', async () => {
    const w = world();
    await w.cache.rulesOf('d2');
    w.rules.push(rule('r3', 'device', 'd2'));
    w.bump();
    w.at(500);
    expect(await w.cache.rulesOf('d2')).toEqual([]);
    w.at(1_000);
    expect((await w.cache.rulesOf('d2')).map((r) => r.id)).toEqual(['r3']);
    expect(w.reads.generation).toBe(2);
    w.rules.push(rule('r4', 'campaign', 'c1'));
    w.at(30_000);
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toEqual(['r1', 'r2', 'r4']);
    w.rules.push(rule('r5', 'device', 'd1'));
    w.at(60_000);
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toEqual(['r1', 'r2', 'r4']);
    w.at(90_001);
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toContain('r5');
  });

  it('adds the presence watch while a webhook of the device, its campaign or organization takes presence', async () => {
    const w = world();
    w.watched.add('campaign:c1');
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toEqual(['r1', 'r2', 'presence']);
    expect((await w.cache.rulesOf('d2')).map((r) => r.id)).toEqual([]);
    // The webhook changed (the integrations area moves the generation): the next look reads it again.
    w.watched.clear();
    w.bump();
    w.at(1_000);
    expect((await w.cache.rulesOf('d1')).map((r) => r.id)).toEqual(['r1', 'r2']);
  });
});
