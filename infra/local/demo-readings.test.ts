import fc from 'fast-check';
import { backtestThreshold } from '../../functions/_shared/alerts/threshold-machine';
import { DEFAULT_PREVIEW_MS, thresholdLevels } from '../../shared/alerts/alert-rules';
import { DEMO_ALERT_RULES } from './demo-alerts';
import { DEMO_READING_INTERVAL_MS, DEMO_SENSOR_DATA, DEMO_SMOG, demoHistory, smogPeakOf } from './demo-readings';
import { localHour } from './demo-shapes';

const rooftop = DEMO_SENSOR_DATA.find((device) => device.deviceId === DEMO_SMOG.deviceId)!;
const condition = DEMO_ALERT_RULES.flatMap(({ condition, target }) =>
  condition.kind === 'threshold' && target.id === DEMO_SMOG.deviceId ? [condition] : [],
)[0]!;
const DAY = 24 * 60 * 60 * 1000;

/** A first start on the readings' grid, any day and time of 2026 and 2027, in a time zone of the world's. */
const starts = fc.record({
  end: fc
    .integer({
      min: Date.UTC(2026, 0, 1) / DEMO_READING_INTERVAL_MS,
      max: Date.UTC(2028, 0, 1) / DEMO_READING_INTERVAL_MS,
    })
    .map((slot) => slot * DEMO_READING_INTERVAL_MS),
  utcOffsetMinutes: fc.constantFrom(-600, -480, -420, -300, 0, 60, 120, 330, 540, 600, 780),
});

describe('the demo history', () => {
  it("gives the rooftop station's PM2.5 rule a period that fired and resolved in its week, whenever the demo starts", () => {
    fc.assert(
      fc.property(starts, ({ end, utcOffsetMinutes }) => {
        const week = demoHistory(rooftop, end, utcOffsetMinutes).flatMap((reading) =>
          reading.timestamp > end - DEFAULT_PREVIEW_MS && reading.values.pm2_5 !== undefined
            ? [{ timestamp: reading.timestamp, value: reading.values.pm2_5 }]
            : [],
        );
        const periods = backtestThreshold(thresholdLevels(condition), week);
        expect(periods.filter((period) => period.clearedAt !== undefined).length).toBeGreaterThan(0);
      }),
      {
        numRuns: 60,
        // Starts whose week had no such period before the smog morning: an ordinary morning peaks near 15.
        examples: [
          [{ end: Date.UTC(2026, 10, 20, 6), utcOffsetMinutes: 0 }],
          [{ end: Date.UTC(2026, 10, 29, 6), utcOffsetMinutes: 0 }],
          [{ end: Date.UTC(2026, 10, 30, 6), utcOffsetMinutes: 0 }],
        ],
      },
    );
  });

  it('puts the smog morning at 08:00 local time, five to six days before the start, with PM10 above PM2.5', () => {
    const end = Date.UTC(2026, 10, 30, 6, 50);
    for (const offset of [-420, 0, 330]) {
      const peak = smogPeakOf(end, offset);
      expect(localHour(peak, offset)).toBe(DEMO_SMOG.peakHour);
      expect(end - peak).toBeGreaterThan(5 * DAY);
      expect(end - peak).toBeLessThanOrEqual(6 * DAY);
    }
    const history = demoHistory(rooftop, end, 0);
    const atPeak = history.find((reading) => reading.timestamp === smogPeakOf(end, 0))!;
    expect(atPeak.values.pm2_5).toBeGreaterThanOrEqual(DEMO_SMOG.base + DEMO_SMOG.rise);
    expect(atPeak.values.pm10).toBeGreaterThan(atPeak.values.pm2_5!);
  });
});
