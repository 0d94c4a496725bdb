import type { AlertTarget, Recipient } from '../../../shared/contracts/alerts';
import type { Relation } from '../../../shared/contracts/relations';
import type { StoredRule } from './alert-model';
import { createRulesOfPerson } from './rules-of-person';

const rule = (id: string, target: AlertTarget, createdBy: string, recipients: Recipient[] = []): StoredRule => ({
  id,
  name: id,
  target,
  condition: { kind: 'silence' },
  recipients,
  enabled: true,
  createdBy,
  created: 1,
  updated: 1,
});

const relation = (type: Relation['type'], referrerId: string, referentId: string): Relation => ({
  id: `${type}#${referrerId}#${referentId}`,
  type,
  referrerId,
  referentId,
  created: 1,
});

const world = () => {
  const rules = new Map<string, StoredRule>();
  const relations: Relation[] = [];
  const touched: string[] = [];
  /** What each rule looked like when the devices were touched (the sweep would read them then). */
  const atTouch: Record<string, boolean | undefined>[] = [];
  let failTouches = 0;
  let generation = 0;
  const page = (items: StoredRule[]) => ({ items, lastKey: undefined });
  const part = createRulesOfPerson({
    rules: {
      byCreator: async (userId) => page([...rules.values()].filter((r) => r.createdBy === userId)),
      byTarget: async (target) =>
        page([...rules.values()].filter((r) => r.target.kind === target.kind && r.target.id === target.id)),
      replace: async (next, expected) => {
        if (rules.get(next.id)?.updated !== expected) return false;
        rules.set(next.id, next);
        return true;
      },
      remove: async (id) => {
        const old = rules.get(id);
        rules.delete(id);
        return old;
      },
    },
    states: {
      touch: async (deviceId) => {
        if (failTouches > 0) {
          failTouches -= 1;
          throw new Error('touch failed (test)');
        }
        atTouch.push(Object.fromEntries([...rules.values()].map((r) => [r.id, r.enabled])));
        touched.push(deviceId);
      },
      bumpGeneration: async () => {
        generation += 1;
      },
    },
    relations: {
      queryAll: async (side, id, types) =>
        relations.filter((r) => (side === 'referrer' ? r.referrerId : r.referentId) === id && types.includes(r.type)),
    },
    now: () => 100,
    log: () => undefined,
  });
  return {
    rules,
    relations,
    touched,
    atTouch,
    part,
    failTouch: () => {
      failTouches = 1;
    },
    generation: () => generation,
  };
};

const populated = () => {
  const w = world();
  w.relations.push(
    relation('campaign-device', 'c1', 'd2'),
    relation('campaign-device', 'c1', 'd3'),
    relation('device-administrator', 'd9', 'ann'),
  );
  w.rules.set('mine-device', rule('mine-device', { kind: 'device', id: 'd1' }, 'ann'));
  w.rules.set('mine-campaign', rule('mine-campaign', { kind: 'campaign', id: 'c1' }, 'ann'));
  // Bob's rule on a device Ann administers names her; another on a device she holds nothing of names her too.
  w.rules.set(
    'bobs',
    rule('bobs', { kind: 'device', id: 'd9' }, 'bob', [
      { kind: 'person', userId: 'ann' },
      { kind: 'person', userId: 'cy' },
    ]),
  );
  w.rules.set('elsewhere', rule('elsewhere', { kind: 'device', id: 'd7' }, 'bob', [{ kind: 'person', userId: 'ann' }]));
  return w;
};

describe("an account's deletion in the alerts area", () => {
  it('switches off, propagates, then removes the rules the person made, and takes them out of recipients', async () => {
    const w = populated();
    await expect(w.part.removeAllOf('ann')).resolves.toBe(3);
    expect([...w.rules.keys()].sort()).toEqual(['bobs', 'elsewhere']);
    expect(w.rules.get('bobs')?.recipients).toEqual([{ kind: 'person', userId: 'cy' }]);
    expect(w.rules.get('bobs')?.updated).toBe(100);
    // Out of reach through her relations: left (delivery checks her access, which she no longer has).
    expect(w.rules.get('elsewhere')?.recipients).toEqual([{ kind: 'person', userId: 'ann' }]);
    expect(w.generation()).toBe(1);
    // The rule's device, the campaign's devices and the device of the rule that changed recipients become due.
    expect([...w.touched].sort()).toEqual(['d1', 'd2', 'd3', 'd9']);
    // When the sweep could look, the person's rules were still there, switched off.
    expect(w.atTouch[0]).toMatchObject({ 'mine-device': false, 'mine-campaign': false });
  });

  it('a run cut short leaves switched-off rules that the next run propagates and removes', async () => {
    const w = populated();
    w.failTouch();
    await expect(w.part.removeAllOf('ann')).rejects.toThrow('(test)');
    expect(w.rules.get('mine-device')?.enabled).toBe(false);
    expect(w.rules.get('mine-campaign')?.enabled).toBe(false);
    await expect(w.part.removeAllOf('ann')).resolves.toBe(2);
    expect([...w.rules.keys()].sort()).toEqual(['bobs', 'elsewhere']);
    expect(w.touched).toEqual(expect.arrayContaining(['d1', 'd2', 'd3']));
    await expect(w.part.removeAllOf('ann')).resolves.toBe(0);
  });
});
