import { callerOf } from '../../../test/support/callers';
import { Forbidden } from '../errors';
import { mayReadDataset, parseDatasetFileKey } from './dataset-access';

const part = { from: 1_000, to: 2_000 };
const dataset = {
  visibility: 'permissioned' as const,
  creatorId: 'alice',
  devices: [
    {
      deviceId: 'd1',
      name: 'D1',
      productLine: 'sd1' as const,
      tier: { id: 'tier1', name: 'Tier 1' },
      windowDays: 30,
      parts: [part],
    },
    {
      deviceId: 'd2',
      name: 'D2',
      productLine: 'sd1' as const,
      tier: { id: 'tier0', name: 'Tier 0' },
      windowDays: null,
      parts: [],
    },
  ],
};

describe('who reads a permissioned dataset', () => {
  it('lets a campaign member in only when their windows cover every part it holds', async () => {
    const through = (windows: { startsAt: number; endsAt: number }[]) => async () => ({ permissioned: true, windows });
    const bob = callerOf('bob');
    expect(await mayReadDataset(bob, dataset, through([{ startsAt: 0, endsAt: 5_000 }]))).toBe(true);
    expect(await mayReadDataset(bob, dataset, through([{ startsAt: 1_500, endsAt: 5_000 }]))).toBe(false);
    // Two windows that together cover the part, touching, count as one.
    const joined = through([
      { startsAt: 1_000, endsAt: 1_499 },
      { startsAt: 1_500, endsAt: 2_000 },
    ]);
    expect(await mayReadDataset(bob, dataset, joined)).toBe(true);
  });

  it('refuses a reader who reaches a device only as public data, or not at all; the creator and staff always read', async () => {
    const publicOnly = async () => ({ permissioned: false, windows: null });
    const stranger = async () => {
      throw new Forbidden();
    };
    expect(await mayReadDataset(callerOf('bob'), dataset, publicOnly)).toBe(false);
    expect(await mayReadDataset(callerOf('bob'), dataset, stranger)).toBe(false);
    expect(await mayReadDataset(undefined, dataset, publicOnly)).toBe(false);
    expect(await mayReadDataset(callerOf('alice'), dataset, stranger)).toBe(true);
    expect(await mayReadDataset(callerOf('boss', ['Employees']), dataset, stranger)).toBe(true);
    expect(await mayReadDataset(undefined, { ...dataset, visibility: 'public' }, stranger)).toBe(true);
  });

  it('reads back only the keys it writes', () => {
    expect(parseDatasetFileKey('datasets/ds_0123456789ab/dev-1.csv')).toEqual({
      datasetId: 'ds_0123456789ab',
      name: 'dev-1.csv',
    });
    expect(parseDatasetFileKey('datasets/ds_0123456789ab/sub/dev-1.csv')).toBeUndefined();
    expect(parseDatasetFileKey('exports/ds_0123456789ab/dev-1.csv')).toBeUndefined();
  });
});
