import { campaignExclusionsOf } from './exclusion-rules';

describe('campaignExclusionsOf', () => {
  const record = (id: string, deviceId: string, created: number, status: 'active' | 'removed' = 'active') => ({
    id,
    deviceId,
    from: 1,
    to: 2,
    reason: `Reason ${id}`,
    createdBy: 'u1',
    created,
    status,
  });

  it('answers each active exclusion once, with its devices counted, newest first', () => {
    const items = [
      record('exc_aaaaaaaaaaaa', 'd1', 10),
      record('exc_bbbbbbbbbbbb', 'd1', 20),
      record('exc_aaaaaaaaaaaa', 'd2', 10),
      record('exc_cccccccccccc', 'd1', 30, 'removed'),
    ];
    expect(campaignExclusionsOf(items).map((e) => [e.id, e.devices])).toEqual([
      ['exc_bbbbbbbbbbbb', 1],
      ['exc_aaaaaaaaaaaa', 2],
    ]);
  });
});
