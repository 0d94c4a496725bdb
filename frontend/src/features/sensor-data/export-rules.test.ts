import { DAY_MS } from '../../../../shared/sensor-data/tiers';
import { exportRange, exportStatusText, formatBytes, isFinished } from './export-rules';

describe('download panel rules', () => {
  it('turns a preset into a range ending now, and the whole window into no range at all', () => {
    expect(exportRange('7d', 1_000 * DAY_MS)).toEqual({ from: 993 * DAY_MS, to: 1_000 * DAY_MS });
    expect(exportRange('window', 5)).toEqual({});
  });

  it('describes each state in words', () => {
    const base = { progress: 45, rows: 1234, bytes: 58_061 };
    expect(exportStatusText({ ...base, status: 'queued' })).toBe('Queued');
    expect(exportStatusText({ ...base, status: 'running' })).toBe('Writing… 45 %');
    expect(exportStatusText({ ...base, status: 'done' })).toBe('Done: 1,234 rows, 56.7 KB');
    expect(exportStatusText({ ...base, status: 'failed', error: 'disk full' })).toBe('Failed: disk full');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(isFinished({ status: 'running' })).toBe(false);
    expect(isFinished({ status: 'failed' })).toBe(true);
  });
});
