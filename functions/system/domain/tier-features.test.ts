import type { Parameter } from '../../../shared/contracts/system';
import { tierFeaturesValueOf } from '../../../shared/sensor-data/tier-features';
import { DEFAULT_TIERS } from '../../../shared/sensor-data/tiers';
import { recordingLog } from '../../../test/support/log';
import { createTierFeatures } from './tier-features';

describe('the tier-features table', () => {
  const setup = () => {
    const rows = new Map<string, Parameter>();
    const store = {
      get: async (id: string) => rows.get(id),
      put: async (p: Parameter) => {
        const before = rows.get(p.id);
        rows.set(p.id, p);
        return before;
      },
    };
    const { log, lines } = recordingLog();
    return { rows, logged: lines, tierFeatures: createTierFeatures({ log, store, now: () => 7_000 }) };
  };

  it('is the seed, not stored, while no parameter exists', async () => {
    const { tierFeatures } = setup();
    const settings = await tierFeatures.get();
    expect(settings.stored).toBe(false);
    expect(settings.updated).toBeUndefined();
    expect(settings.productLines.map((l) => l.productLine)).toEqual(['sd1', 'al30', 'al60', 'al80']);
    expect(settings.productLines[0]!.tiers.map((t) => t.features)).toEqual(DEFAULT_TIERS.sd1.map((r) => r.features));
  });

  it('stores a table as the tier-features parameter, stamped with the server clock, and answers it', async () => {
    const { rows, tierFeatures } = setup();
    const value = tierFeaturesValueOf(DEFAULT_TIERS);
    value.sd1.tier0!.historicalDataAccessDays = 3;
    const saved = await tierFeatures.put(value);
    expect(saved).toMatchObject({ stored: true, updated: 7_000 });
    expect(rows.get('tier-features')).toEqual({ id: 'tier-features', value, updated: 7_000 });
    const read = await tierFeatures.get();
    expect(read).toEqual(saved);
    expect(read.productLines[0]!.tiers[0]).toMatchObject({ name: 'Tier 0', features: { historicalDataAccessDays: 3 } });
  });

  it('answers the seed, as not stored, when the stored value is invalid (written before the rule)', async () => {
    const { rows, tierFeatures, logged } = setup();
    rows.set('tier-features', { id: 'tier-features', value: { sd1: 'x' }, updated: 1 });
    expect(await tierFeatures.get()).toMatchObject({ stored: false });
    expect(logged.map((line) => line.level)).toEqual(['error']);
  });
});
