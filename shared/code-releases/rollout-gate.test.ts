import { type GateRun, rolloutGate } from './rollout-gate';

const published = { productLine: 'sd1', version: '1.4.2', status: 'published' as const };
const run = (id: string, status: GateRun['status'], finished?: number): GateRun => ({
  id,
  status,
  ...(finished === undefined ? {} : { finished }),
});

describe('the rollout gate', () => {
  it('stays shut for a draft, whatever its runs say', () => {
    const gate = rolloutGate({ ...published, status: 'draft' }, [run('a', 'Pass', 10)]);
    expect(gate).toMatchObject({ open: false, code: 'draft' });
  });

  it('stays shut with no result, or with only a run in progress', () => {
    expect(rolloutGate(published, [])).toEqual({
      open: false,
      code: 'untested',
      reason: 'SD1 1.4.2 has no passing test run: record a passing test run before rolling it out.',
    });
    expect(rolloutGate(published, [run('a', 'InProgress')])).toMatchObject({ open: false, code: 'untested' });
  });

  it('stays shut after a failure, opens with a later pass, and shuts again with a failure recorded after it', () => {
    expect(rolloutGate(published, [run('a', 'Fail', 10)])).toMatchObject({
      open: false,
      code: 'failed',
      reason: expect.stringContaining('the latest failed'),
    });
    expect(rolloutGate(published, [run('a', 'Fail', 10), run('b', 'Pass', 20)])).toEqual({
      open: true,
      passedRunId: 'b',
    });
    expect(rolloutGate(published, [run('a', 'Fail', 10), run('b', 'Pass', 20), run('c', 'Fail', 30)])).toEqual({
      open: false,
      code: 'failed',
      reason:
        'The latest test run of SD1 1.4.2 failed after an earlier pass: record a new passing test run before rolling it out.',
    });
  });

  it('orders by when results were recorded, not by list order, and ignores runs still in progress', () => {
    expect(rolloutGate(published, [run('late-pass', 'Pass', 50), run('early-fail', 'Fail', 40)])).toMatchObject({
      open: true,
      passedRunId: 'late-pass',
    });
    expect(rolloutGate(published, [run('a', 'Pass', 10), run('b', 'InProgress')])).toMatchObject({ open: true });
  });
});
