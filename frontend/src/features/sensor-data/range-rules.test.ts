import { DAY_MS } from '../../../../shared/sensor-data/tiers';
import { chartData, customRange, lockedMessage, presetRange, windowText } from './range-rules';

const now = Date.UTC(2025, 0, 1);
const summaryOf = (productLine: 'sd1' | 'al30', name: string, days: number | null) => ({
  productLine,
  tier: { tier: 'tier0' as const, name, features: {} as never, chosen: [] },
  windows: {
    view: { days, from: days === null ? null : now - days * DAY_MS },
    download: { days: null, from: null },
    api: { days: null, from: null },
  },
});

describe('lockedMessage', () => {
  it('is silent inside the window and names the tier that unlocks a longer range', () => {
    const tier0 = summaryOf('sd1', 'Tier 0', 7);
    expect(lockedMessage(tier0, presetRange('7d', now), now)).toBeUndefined();
    expect(lockedMessage(tier0, presetRange('30d', now), now)).toBe(
      'Tier 0 shows the last 7 days. Tier 1 unlocks 30 days.',
    );
    expect(lockedMessage(tier0, presetRange('1y', now), now)).toBe(
      'Tier 0 shows the last 7 days. Tier 2 unlocks 365 days.',
    );
  });

  it('names the tier for the range chosen a moment ago, not for one day more', () => {
    const chosen = presetRange('30d', now - 3_000);
    expect(lockedMessage(summaryOf('sd1', 'Tier 0', 7), chosen, now)).toBe(
      'Tier 0 shows the last 7 days. Tier 1 unlocks 30 days.',
    );
  });

  it('on the AL lines skips the tier that adds no history', () => {
    expect(lockedMessage(summaryOf('al30', 'Tier 1', 7), presetRange('30d', now), now)).toBe(
      'Tier 1 shows the last 7 days. Tier 2 unlocks 30 days.',
    );
  });

  it('says when no tier reaches that far', () => {
    const range = { from: now - 500 * DAY_MS, to: now };
    expect(lockedMessage(summaryOf('sd1', 'Tier 2', 365), range, now)).toContain('no tier of this product line');
  });
});

describe('chartData', () => {
  it('puts x at each bucket middle in seconds, in a typed array, and keeps gaps as null', () => {
    const [xs, min, max, mean] = chartData(
      { t: [0, 60_000], bucketMs: 60_000 },
      { label: 'PM2.5', min: [1, null], max: [3, null], mean: [2, null] },
    );
    expect(xs).toBeInstanceOf(Float64Array);
    expect([...xs]).toEqual([30, 90]);
    expect([min, max, mean]).toEqual([
      [1, null],
      [3, null],
      [2, null],
    ]);
  });
});

describe('windowText', () => {
  it('reads as days or not included', () => {
    expect(windowText(null)).toBe('not included');
    expect(windowText(1)).toBe('1 day');
    expect(windowText(365)).toBe('365 days');
  });
});

describe('customRange', () => {
  it('answers the typed range, or says what is missing or reversed', () => {
    expect(customRange({ from: '2025-01-01T00:00', to: '2025-01-02T00:00' })).toEqual({
      from: new Date('2025-01-01T00:00').getTime(),
      to: new Date('2025-01-02T00:00').getTime(),
    });
    expect(customRange({ from: '', to: '2025-01-02T00:00' })).toBe('Choose both a start and an end');
    expect(customRange({ from: '2025-01-02T00:00', to: '2025-01-01T00:00' })).toBe('The start must be before the end');
  });
});
