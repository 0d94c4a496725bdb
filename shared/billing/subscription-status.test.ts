import { SUBSCRIPTION_STATUSES, statusLabel, statusLook } from './subscription-status';

describe('subscription statuses (spec §4)', () => {
  it('labels each status capitalised, words apart', () => {
    expect(statusLabel('active')).toBe('Active');
    expect(statusLabel('past_due')).toBe('Past due');
    expect(statusLabel('incomplete_expired')).toBe('Incomplete expired');
  });

  it('gives each of the eight statuses its own colour and icon pair', () => {
    const pairs = SUBSCRIPTION_STATUSES.map((status) => {
      const look = statusLook(status);
      return `${look.colour}/${look.icon}`;
    });
    expect(new Set(pairs).size).toBe(8);
    expect(pairs).not.toContain('muted/question');
  });

  it('draws an unknown status grey, with its own words', () => {
    expect(statusLook('on_hold')).toEqual({ label: 'On hold', colour: 'muted', icon: 'question' });
    expect(statusLook('')).toMatchObject({ label: 'Unknown', colour: 'muted' });
  });
});
