import { MEASUREMENTS_CONSENT_KEY, measurementsState, pageIdOf } from './measurements';

const ANALYTICS = {
  appMonitorId: '5f0c2a7e-3b1d-4c8a-9e6f-2d4b7a1c0e93',
  endpoint: 'http://localhost:8091',
  sessionSampleRate: 1,
};
const stored = (value?: string) => ({
  getItem: (key: string) => (key === MEASUREMENTS_CONSENT_KEY ? (value ?? null) : null),
});

describe('measurementsState', () => {
  it('is off until the visitor said yes, and on only then', () => {
    expect(measurementsState({ analytics: ANALYTICS }, stored(), {})).toBe('off');
    expect(measurementsState({ analytics: ANALYTICS }, stored('declined'), {})).toBe('off');
    expect(measurementsState({ analytics: ANALYTICS }, stored('yes'), {})).toBe('off');
    expect(measurementsState({ analytics: ANALYTICS }, stored('granted'), {})).toBe('on');
  });

  it("honours the browser's Global Privacy Control and Do Not Track above the switch", () => {
    expect(measurementsState({ analytics: ANALYTICS }, stored('granted'), { globalPrivacyControl: true })).toBe(
      'refused-by-browser',
    );
    expect(measurementsState({ analytics: ANALYTICS }, stored('granted'), { doNotTrack: '1' })).toBe(
      'refused-by-browser',
    );
    expect(measurementsState({ analytics: ANALYTICS }, stored('granted'), { doNotTrack: '0' })).toBe('on');
  });

  it('is unavailable where the environment has no app monitor', () => {
    expect(measurementsState({}, stored('granted'), {})).toBe('unavailable');
  });
});

describe('pageIdOf', () => {
  it("names a view by its route's pattern, never by the ids in its path", () => {
    expect(pageIdOf([undefined, '/dashboard/devices/:id'])).toBe('/dashboard/devices/:id');
    expect(pageIdOf([undefined, '/dashboard'])).toBe('/dashboard');
  });

  it('joins nested routes (the admin pages) into one pattern', () => {
    expect(pageIdOf(['/admin', 'devices/:id'])).toBe('/admin/devices/:id');
    expect(pageIdOf(['/admin', undefined, 'people'])).toBe('/admin/people');
    expect(pageIdOf(['/admin/', 'releases/:id'])).toBe('/admin/releases/:id');
  });

  it('names the catch-all and an empty match too', () => {
    expect(pageIdOf([undefined, '*'])).toBe('/*');
    expect(pageIdOf([])).toBe('/');
  });
});
