import { atRestOnRecord, isAtRest } from './rest-marks';

describe('the alert rest marks on a device record', () => {
  it('say at rest only while the rest mark is at or past the busy mark', () => {
    expect(atRestOnRecord(undefined)).toBe(false);
    expect(atRestOnRecord({ id: 'd1' })).toBe(false);
    expect(atRestOnRecord({ id: 'd1', alertsBusy: 3 })).toBe(false);
    expect(atRestOnRecord({ id: 'd1', alertsAtRest: 3 })).toBe(true);
    expect(atRestOnRecord({ id: 'd1', alertsAtRest: 3, alertsBusy: 3 })).toBe(true);
    expect(atRestOnRecord({ id: 'd1', alertsAtRest: 3, alertsBusy: 4 })).toBe(false);
  });

  it('a state is at rest when no track is pending, firing or clearing', () => {
    expect(isAtRest({ tracks: {} })).toBe(true);
    expect(isAtRest({ tracks: { r1: { kind: 'threshold', phase: 'ok' }, r2: { kind: 'silence', phase: 'ok' } } })).toBe(
      true,
    );
    for (const phase of ['pending', 'firing', 'clearing'] as const) {
      expect(isAtRest({ tracks: { r1: { kind: 'threshold', phase: 'ok' }, r2: { kind: 'threshold', phase } } })).toBe(
        false,
      );
    }
  });
});
