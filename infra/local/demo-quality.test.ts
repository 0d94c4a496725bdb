import { DEMO_QUALITY, withDemoFlaws } from './demo-quality';

const MINUTE = 60_000;
const end = Date.UTC(2026, 2, 15, 12, 0);

/** A week of 10-minute readings that vary, as the demo signal does. */
const week = Array.from({ length: 7 * 144 }, (_, i) => ({
  timestamp: end - (7 * 144 - 1 - i) * 10 * MINUTE,
  values: { pm2_5: 10 + (i % 5), humidity: 50 + (i % 3) },
}));

describe('the demo history’s flaws', () => {
  it('puts a spike and a stuck period into the rooftop station’s PM2.5, flagged as ingest flags them', () => {
    const flawed = withDemoFlaws(DEMO_QUALITY.deviceId, week, end);
    const flagged = flawed.filter((r) => r.flags).map((r) => [end - r.timestamp, r.flags]);
    const stuckFrom = DEMO_QUALITY.stuckBeforeEndMs;
    // Stuck once the value has held 2 hours: the last 6 of the 18 readings of the 3 hours.
    expect(flagged).toEqual([
      ...Array.from({ length: 6 }, (_, k) => [stuckFrom - 120 * MINUTE - k * 10 * MINUTE, { pm2_5: ['stuck_value'] }]),
      [DEMO_QUALITY.spikeBeforeEndMs, { pm2_5: ['step_too_high'] }],
    ]);
    expect(flawed.find((r) => r.timestamp === end - DEMO_QUALITY.spikeBeforeEndMs)!.values.pm2_5).toBe(280);
  });

  it('leaves another device’s history as it was', () => {
    expect(withDemoFlaws('demo-device-2', week, end)).toEqual(week);
  });
});
