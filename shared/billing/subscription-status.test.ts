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
    // Distinct colours and distinct icons, not merely distinct pairs; none the unknown status's grey or question mark.
    const looks = SUBSCRIPTION_STATUSES.map(statusLook);
    expect(new Set(looks.map((look) => look.colour)).size).toBe(8);
    expect(new Set(looks.map((look) => look.icon)).size).toBe(8);
    expect(looks.map((look) => look.colour)).not.toContain('grey');
    expect(looks.map((look) => look.icon)).not.toContain('question');
  });

  it('draws an unknown status grey, with its own words', () => {
    expect(statusLook('on_hold')).toEqual({ label: 'On hold', colour: 'grey', icon: 'question' });
    expect(statusLook('')).toMatchObject({ label: 'Unknown', colour: 'grey' });
    expect(statusLook('constructor')).toMatchObject({ label: 'Constructor', colour: 'grey', icon: 'question' });
  });
});
