import { DEFAULT_TIERS } from '../../../shared/sensor-data/tiers';
import { publicAllowance } from './api-public';

const row = (line: keyof typeof DEFAULT_TIERS, tier: string) => DEFAULT_TIERS[line].find((r) => r.tier === tier)!;

describe("a person's own allowance for other people's public devices", () => {
  it('is the best apiMaxRequests among the tiers with API access of their own devices', () => {
    expect(publicAllowance([row('sd1', 'tier1'), row('sd1', 'tier2'), row('al30', 'tier2')])).toBe(10_000);
    expect(publicAllowance([row('sd1', 'tier1'), row('al30', 'free')])).toBe(3_000);
  });

  it('is nothing without a device whose tier has API access', () => {
    expect(publicAllowance([])).toBe(0);
    expect(publicAllowance([row('sd1', 'tier0'), row('al80', 'tier1')])).toBe(0);
  });
});
