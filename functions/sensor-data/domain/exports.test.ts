import { EXPORT_STARTS_PER_HOUR } from '../../../shared/contracts/sensor-data-exports';
import { DEFAULT_TIERS, tierRow } from '../../../shared/sensor-data/tiers';
import { callerOf } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import { rejectionOf } from '../../../test/support/rejection';
import type { DataAccess } from '../../_shared/sensor-data/data-access';
import { createExports } from './exports';
import type { ExportRecord, ExportStore } from './ports';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 9, 40);

const access: DataAccess = {
  device: { id: 'dev-1', name: 'D', productLine: 'sd1', dataVisibility: 'public', state: 'active' },
  tier: tierRow(DEFAULT_TIERS.sd1, 'tier1'),
  lineTiers: DEFAULT_TIERS.sd1,
  route: 'relation',
  permissioned: true,
  windows: null,
};

/** The exports table's start counter in memory: per requester and hour, refused at the limit. */
const setup = () => {
  const counts = new Map<string, number>();
  const created: ExportRecord[] = [];
  let now = T0;
  let n = 0;
  const store = {
    create: async (record: ExportRecord) => {
      created.push(record);
      return true;
    },
    countStart: async (requester: string, hourStart: number, limit: number) => {
      const key = `${requester}#${hourStart}`;
      if ((counts.get(key) ?? 0) >= limit) return false;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return true;
    },
  } as unknown as ExportStore;
  const exports = createExports({
    log: silentLog,
    store,
    dataAccess: { resolve: async () => access },
    work: { send: async () => undefined },
    bucket: 'exports',
    now: () => now,
    newId: () => `exp_${String(++n).padStart(20, '0')}`,
  });
  return { exports, created, setNow: (t: number) => (now = t) };
};

describe('download starts per hour', () => {
  it('refuses a person past the hourly limit with 429 and Retry-After to the next hour, and others still start', async () => {
    const { exports, created, setNow } = setup();
    const alice = callerOf('alice');
    for (let i = 0; i < EXPORT_STARTS_PER_HOUR.person; i++)
      await exports.create(alice, 'dev-1', { format: 'csv' }, '1.1.1.1');
    const error = await rejectionOf(exports.create(alice, 'dev-1', { format: 'csv' }, '2.2.2.2'));
    expect(error).toMatchObject({
      status: 429,
      message: `At most ${EXPORT_STARTS_PER_HOUR.person} downloads can be started an hour; the next one can start at 10:00 UTC`,
      headers: { 'retry-after': String(20 * 60) },
    });
    expect(created).toHaveLength(EXPORT_STARTS_PER_HOUR.person);
    // Another person, and the same person in the next hour, start again.
    await exports.create(callerOf('bob'), 'dev-1', { format: 'csv' }, '1.1.1.1');
    setNow(T0 + HOUR);
    await exports.create(alice, 'dev-1', { format: 'csv' }, '1.1.1.1');
    expect(created).toHaveLength(EXPORT_STARTS_PER_HOUR.person + 2);
  });

  it('counts guests by address, with their own lower limit', async () => {
    const { exports } = setup();
    for (let i = 0; i < EXPORT_STARTS_PER_HOUR.guest; i++)
      await exports.create(undefined, 'dev-1', { format: 'csv' }, '9.9.9.9');
    expect(await rejectionOf(exports.create(undefined, 'dev-1', { format: 'csv' }, '9.9.9.9'))).toMatchObject({
      status: 429,
    });
    await exports.create(undefined, 'dev-1', { format: 'csv' }, '8.8.8.8');
  });
});
