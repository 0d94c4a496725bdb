import { DAY_MS, DEFAULT_TIERS, type TierRow } from '../../../../shared/sensor-data/tiers';
import { customRange, lockedMessage, presetRange, viewableRange, windowText } from './range-rules';

const now = Date.UTC(2025, 0, 1);
/** A summary as the API answers it: the tier, its view window, and the line's tiers (the seed unless given). */
const summaryOf = (
  productLine: 'sd1' | 'al30',
  name: string,
  days: number | null,
  tiers: readonly TierRow[] = DEFAULT_TIERS[productLine],
) => ({
  productLine,
  tier: { tier: 'tier0' as const, name, features: {} as never, chosen: [] },
  tiers: [...tiers],
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

  it('names a named tier in a sentence ("The Free tier"), never by its id', () => {
    expect(lockedMessage(summaryOf('al30', 'Free', 7), presetRange('30d', now), now)).toBe(
      'The Free tier shows the last 7 days. Tier 2 unlocks 30 days.',
    );
  });

  it('on the AL lines skips the tier that adds no history', () => {
    expect(lockedMessage(summaryOf('al30', 'Tier 1', 7), presetRange('30d', now), now)).toBe(
      'Tier 1 shows the last 7 days. Tier 2 unlocks 30 days.',
    );
  });

  it("names what the line's tiers unlock as the summary says, not the seed", () => {
    const tiers = DEFAULT_TIERS.sd1.map((row) =>
      row.tier === 'tier1' ? { ...row, features: { ...row.features, historicalDataAccessDays: 90 } } : row,
    );
    expect(lockedMessage(summaryOf('sd1', 'Tier 0', 7, tiers), presetRange('30d', now), now)).toBe(
      'Tier 0 shows the last 7 days. Tier 1 unlocks 90 days.',
    );
  });

  it('says when no tier reaches that far', () => {
    const range = { from: now - 500 * DAY_MS, to: now };
    expect(lockedMessage(summaryOf('sd1', 'Tier 2', 365), range, now)).toContain('no tier of this product line');
  });
});

describe('viewableRange', () => {
  const tier1 = summaryOf('sd1', 'Tier 1', 30);
  it('charts the window of a range that reaches past it, and leaves ranges inside it alone', () => {
    expect(viewableRange(tier1, presetRange('1y', now), now)).toEqual({ from: now - 30 * DAY_MS, to: now });
    expect(viewableRange(tier1, presetRange('30d', now), now)).toEqual(presetRange('30d', now));
    expect(viewableRange(undefined, presetRange('1y', now), now)).toEqual(presetRange('1y', now));
  });

  it('leaves a range wholly before the window as asked, for the API to refuse', () => {
    const old = { from: now - 90 * DAY_MS, to: now - 60 * DAY_MS };
    expect(viewableRange(tier1, old, now)).toEqual(old);
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
