import type { CacheFile, CacheRebuild } from '../../../../shared/contracts/system';
import {
  awaitsRebuild,
  fileLabel,
  parseKeys,
  rangeOfDates,
  rebuildProgress,
  rebuildText,
  sizeText,
} from './cache-rules';

const readings = { partitionKey: { name: 'pk', type: 'S' as const }, sortKey: { name: 'ts', type: 'N' as const } };
const devices = { partitionKey: { name: 'id', type: 'S' as const } };

describe('the cache page rules', () => {
  it('names a file by what it holds', () => {
    expect(fileLabel({ resolution: 'hour', period: '2026-11' })).toBe('Hours of November 2026');
    expect(fileLabel({ resolution: 'day', period: '2026' })).toBe('Days of 2026');
    expect(fileLabel({ resolution: null, period: null })).toBe('Not a chart-data file');
    expect(sizeText(812)).toBe('812 B');
    expect(sizeText(12_345)).toBe('12.3 kB');
  });

  it('follows a rebuild by the files written since it was asked (whole seconds)', () => {
    const rebuild: CacheRebuild = {
      deviceId: 'd',
      from: 0,
      to: 1,
      hours: 2,
      messages: 1,
      requestedAt: 10_500,
      files: [
        { key: 'charts/d/hour/2026-11.json', resolution: 'hour', period: '2026-11' },
        { key: 'charts/d/day/2026.json', resolution: 'day', period: '2026' },
      ],
    };
    const file = (key: string, lastModified: number): CacheFile => ({
      key,
      resolution: 'hour',
      period: '2026-11',
      bytes: 1,
      lastModified,
    });
    const before = [file('charts/d/hour/2026-11.json', 9_000)];
    expect(rebuildProgress(rebuild, before)).toEqual({ written: 0, total: 2, done: false });
    expect(awaitsRebuild(rebuild, before[0]!)).toBe(true);
    const after = [file('charts/d/hour/2026-11.json', 10_000), file('charts/d/day/2026.json', 12_000)];
    expect(rebuildProgress(rebuild, after)).toEqual({ written: 2, total: 2, done: true });
    expect(awaitsRebuild(rebuild, after[0]!)).toBe(false);
    expect(rebuildText(rebuild)).toBe('Rebuild queued: 2 hours in 1 message; 2 files will be written.');
  });

  it('turns two dates into whole UTC days, ending no later than now', () => {
    const now = Date.UTC(2026, 10, 20, 15, 30);
    expect(rangeOfDates('2026-11-01', '2026-11-02', now)).toEqual({
      ok: true,
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 10, 3) - 1,
    });
    expect(rangeOfDates('2026-11-19', '2026-11-20', now)).toMatchObject({ to: now });
    expect(rangeOfDates('2026-11-03', '2026-11-02', now)).toEqual({
      ok: false,
      error: 'The start must not be after the end.',
    });
    expect(rangeOfDates('', '2026-11-02', now)).toEqual({ ok: false, error: 'Choose both dates.' });
  });

  it('reads keys one a line, a composite key split at its last comma, numbers checked', () => {
    expect(parseKeys('dev-1\n\n dev-2 ', devices)).toEqual({ ok: true, keys: [{ id: 'dev-1' }, { id: 'dev-2' }] });
    expect(parseKeys('dev-1#2026-11-20, 1763650000000', readings)).toEqual({
      ok: true,
      keys: [{ pk: 'dev-1#2026-11-20', ts: 1763650000000 }],
    });
    expect(parseKeys('dev-1#2026-11-20', readings)).toEqual({
      ok: false,
      error: 'Line 1: give pk, then ts, separated by a comma.',
    });
    expect(parseKeys('a, b\nx, soon', readings)).toEqual({ ok: false, error: 'Line 1: ts must be a number.' });
    expect(parseKeys('  ', devices)).toEqual({ ok: false, error: 'Enter at least one key, one a line.' });
    expect(parseKeys(Array.from({ length: 101 }, (_, i) => `d${i}`).join('\n'), devices)).toEqual({
      ok: false,
      error: 'At most 100 keys at once.',
    });
  });
});
