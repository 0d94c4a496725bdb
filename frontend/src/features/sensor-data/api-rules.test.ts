import { curlExample, usedPercent, warningText, worstWarning } from './api-rules';

describe('API page rules', () => {
  it('shows the share of the quota used, capped at 100, and 0 without a quota', () => {
    expect(usedPercent({ used: 2_100, limit: 3_000 })).toBe(70);
    expect(usedPercent({ used: 3_001, limit: 3_000 })).toBe(100);
    expect(usedPercent({ used: 0, limit: 0 })).toBe(0);
  });

  it('names each warning and picks the highest', () => {
    const warnings = [
      { threshold: 70 as const, used: 2_100, at: 1 },
      { threshold: 90 as const, used: 2_700, at: 2 },
    ];
    expect(warnings.map(warningText)).toEqual(['70 % reached (2100 requests)', '90 % reached (2700 requests)']);
    expect(warningText({ threshold: 100, used: 3_000, at: 3 })).toBe('Quota used up (3000 requests)');
    expect(worstWarning({ warnings })?.threshold).toBe(90);
    expect(worstWarning({ warnings: [] })).toBeUndefined();
  });

  it('builds the curl call against the configured base URL with the key header', () => {
    expect(curlExample('http://localhost:3000/sensor-data/', 'dev-sd1 01')).toBe(
      "curl -H 'x-api-key: ak_…' \\\n  'http://localhost:3000/sensor-data/v1/devices/dev-sd1%2001/readings?limit=50'",
    );
    expect(curlExample('https://sensor-data.example.com')).toContain('/v1/devices/{deviceId}/readings');
  });
});
