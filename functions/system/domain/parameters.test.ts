import type { Parameter } from '../../../shared/contracts/system';
import { tierFeaturesValueOf } from '../../../shared/sensor-data/tier-features';
import { DEFAULT_TIERS } from '../../../shared/sensor-data/tiers';
import { BadRequest, Conflict, NotFound } from '../../_shared/errors';
import { createParameters } from './parameters';

const memoryStore = () => {
  const rows = new Map<string, Parameter>();
  return {
    rows,
    get: async (id: string) => rows.get(id),
    keyRead: (id: string) => ({ table: 'parameters', key: { id }, consistent: true }),
    list: async () => ({ items: [...rows.values()], nextCursor: undefined }),
    create: async (p: Parameter) => {
      if (rows.has(p.id)) return false;
      rows.set(p.id, p);
      return true;
    },
    update: async (id: string, value: Parameter['value'], updated: number) => {
      const before = rows.get(id);
      if (!before) return undefined;
      const after = { id, value, updated };
      rows.set(id, after);
      return { before, after };
    },
    put: async (p: Parameter) => {
      const before = rows.get(p.id);
      rows.set(p.id, p);
      return before;
    },
    remove: async (id: string) => {
      const before = rows.get(id);
      rows.delete(id);
      return before;
    },
  };
};

describe('system parameters', () => {
  let clock = 1_000;
  const setup = () => {
    const store = memoryStore();
    return { store, parameters: createParameters({ store, now: () => clock }) };
  };

  it('stamps the server clock on create and update, whatever the client sent', async () => {
    const { parameters } = setup();
    clock = 5_000;
    expect(await parameters.create({ id: 'banner', value: 'hello' })).toEqual({
      id: 'banner',
      value: 'hello',
      updated: 5_000,
    });
    clock = 9_000;
    expect(await parameters.update('banner', { on: true })).toEqual({
      id: 'banner',
      value: { on: true },
      updated: 9_000,
    });
  });

  it('tells the audit log the parameter as it was before an update or a delete', async () => {
    const { parameters } = setup();
    clock = 5_000;
    await parameters.create({ id: 'banner', value: 'hello' });
    const seen: unknown[] = [];
    const audit = { before: (value: unknown) => seen.push(value), after: () => undefined, label: () => undefined };
    clock = 6_000;
    await parameters.update('banner', 'bye', audit);
    await parameters.remove('banner', audit);
    expect(seen).toEqual([
      { id: 'banner', value: 'hello', updated: 5_000 },
      { id: 'banner', value: 'bye', updated: 6_000 },
    ]);
  });

  it("checks a shape only for the ids that have one: Object.prototype's names are ids with none (audit)", async () => {
    const { parameters } = setup();
    for (const id of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      await expect(parameters.create({ id, value: 'fuzz' })).resolves.toMatchObject({ id, value: 'fuzz' });
      await expect(parameters.update(id, { any: 'thing' })).resolves.toMatchObject({ id, value: { any: 'thing' } });
    }
    await expect(parameters.update('no-such', 1)).rejects.toThrow(new NotFound('Parameter not found: no-such'));
  });

  it('refuses to create an id twice', async () => {
    const { parameters, store } = setup();
    await parameters.create({ id: 'a', value: 1 });
    await expect(parameters.create({ id: 'a', value: 2 })).rejects.toThrow(new Conflict('Parameter already exists: a'));
    expect(store.rows.get('a')?.value).toBe(1);
  });

  it.each([
    ['get', (p: ReturnType<typeof setup>['parameters']) => p.get('nope')],
    ['update', (p: ReturnType<typeof setup>['parameters']) => p.update('nope', 1)],
    ['remove', (p: ReturnType<typeof setup>['parameters']) => p.remove('nope')],
  ])('answers %s of an unknown id with a 404 naming it', async (_op, call) => {
    const { parameters } = setup();
    const error = await call(parameters).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as NotFound).message).toBe('Parameter not found: nope');
  });

  it('refuses a tier-features value the tier table refuses, on create and update alike (400 with the reason)', async () => {
    const { parameters, store } = setup();
    const value = tierFeaturesValueOf(DEFAULT_TIERS) as unknown as Parameter['value'];
    await expect(parameters.create({ id: 'tier-features', value: { sd1: 1 } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('SD1'),
    });
    expect(store.rows.has('tier-features')).toBe(false);
    await parameters.create({ id: 'tier-features', value });
    const lowered = tierFeaturesValueOf(DEFAULT_TIERS);
    lowered.al30.tier2!.historicalDataAccessDays = 1;
    const error = await parameters
      .update('tier-features', lowered as unknown as Parameter['value'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequest);
    expect((error as BadRequest).message).toMatch(/^AL30 Tier 2: history days \(1\) is less than Tier 1's \(7\)/);
    expect(store.rows.get('tier-features')?.value).toEqual(value);
    // Another id takes any JSON, as before.
    await parameters.create({ id: 'tier-features-note', value: 'anything' });
  });
});
