import { LIVE_LIST_LENGTH, latestValues, mergeRecent, parseLiveMessage, renewDelay } from './live-rules';

describe('live panel rules', () => {
  it('reads only well-formed messages of its own device', () => {
    const message = JSON.stringify({ deviceId: 'd1', readings: [{ timestamp: 1, values: { co2: 400 } }] });
    expect(parseLiveMessage(message, 'd1')).toEqual([{ timestamp: 1, values: { co2: 400 } }]);
    expect(parseLiveMessage(message, 'd2')).toBeUndefined();
    expect(parseLiveMessage('not json', 'd1')).toBeUndefined();
    expect(parseLiveMessage('{"deviceId":"d1","readings":[{"timestamp":"x"}]}', 'd1')).toBeUndefined();
  });

  it('keeps the newest readings, each once', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ timestamp: i, values: { pm10: i } }));
    const merged = mergeRecent(many.slice(0, 8), many.slice(5));
    expect(merged).toHaveLength(LIVE_LIST_LENGTH);
    expect(merged[0]!.timestamp).toBe(14);
    expect(new Set(merged.map((r) => r.timestamp)).size).toBe(LIVE_LIST_LENGTH);
  });

  it('takes each measurement’s latest value, even from an older reading', () => {
    const latest = latestValues([
      { timestamp: 2, values: { pm10: 5 } },
      { timestamp: 1, values: { pm10: 3, co2: 410 } },
    ]);
    expect(latest.get('pm10')).toEqual({ value: 5, timestamp: 2 });
    expect(latest.get('co2')).toEqual({ value: 410, timestamp: 1 });
  });

  it('renews five minutes before the end, never in a rush', () => {
    expect(renewDelay(3_600_000, 0)).toBe(3_300_000);
    expect(renewDelay(1_000, 0)).toBe(10_000);
  });
});
