import { isConcluded, TEST_RUN_STATUSES, testRunLook } from './test-run-status';

describe('test-run statuses (spec §4)', () => {
  it('shows Pass green, Fail red and InProgress orange, each with its own icon', () => {
    expect(testRunLook('Pass')).toEqual({ label: 'Pass', colour: 'success', icon: 'check' });
    expect(testRunLook('Fail')).toEqual({ label: 'Fail', colour: 'danger', icon: 'cross' });
    expect(testRunLook('InProgress')).toEqual({ label: 'In progress', colour: 'caution', icon: 'clock' });
    const icons = TEST_RUN_STATUSES.map((status) => testRunLook(status).icon);
    expect(new Set(icons).size).toBe(3);
  });

  it('draws an unknown status grey with a question mark and its own words', () => {
    expect(testRunLook('Skipped')).toEqual({ label: 'Skipped', colour: 'muted', icon: 'question' });
    expect(testRunLook('')).toMatchObject({ label: 'Unknown', colour: 'muted' });
  });

  it('counts only Pass and Fail as results', () => {
    expect(TEST_RUN_STATUSES.filter(isConcluded)).toEqual(['Pass', 'Fail']);
  });
});
