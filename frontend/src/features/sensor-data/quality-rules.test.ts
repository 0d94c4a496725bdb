import { qualityMarks, reprocessingText } from './quality-rules';

const columns = (mean: (number | null)[], suspect: number[], bad: number[], max = mean) => ({
  label: 'PM2.5',
  min: mean,
  max,
  mean,
  gapMs: null,
  suspect,
  bad,
});

describe('qualityMarks', () => {
  it('marks a bucket with bad readings bad, one with only suspect ones suspect, at its highest value', () => {
    const series = { t: [0, 10, 20, 30], bucketMs: 10 };
    const marks = qualityMarks(series, columns([1, 2, 3, null], [0, 1, 1, 1], [0, 0, 1, 0], [1, 9, 3, null]));
    expect(marks).toEqual([
      { x: 15, y: 9, kind: 'suspect' },
      { x: 25, y: 3, kind: 'bad' },
    ]);
  });
});

describe('reprocessingText', () => {
  const DAY = 86_400_000;
  const running = { deviceId: 'd1', status: 'running' as const, pending: 1 };

  it('says how far a run is, in days from two days up and in hours below', () => {
    expect(reprocessingText({ ...running, progress: 37, doneMs: 3 * DAY, totalMs: 8 * DAY }, false)).toBe(
      'Reprocessing: 37 % — 3 of 8 days',
    );
    expect(reprocessingText({ ...running, progress: 41, doneMs: 5 * 3_600_000, totalMs: 12 * 3_600_000 }, true)).toBe(
      'Reprocessing: 41 % — 5 of 12 hours',
    );
    expect(reprocessingText({ ...running, progress: 0 }, false)).toBe('Reprocessing: 0 % — waiting to start');
  });

  it('says a run is done once one was seen or started, else that nothing waits', () => {
    const idle = { deviceId: 'd1', status: 'idle' as const, progress: 100, pending: 0 };
    expect(reprocessingText(idle, true)).toBe('Reprocessing done: the charts show every change.');
    expect(reprocessingText(idle, false)).toBe('Charts and roll-ups include every calibration and exclusion.');
    expect(reprocessingText(undefined, false)).toBe('');
  });
});
