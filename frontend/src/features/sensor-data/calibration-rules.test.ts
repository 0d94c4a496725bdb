import { EPA_PURPLEAIR_PRESET } from '../../../../shared/sensor-data/calibration';
import { formulaOf, periodOf, previewLines } from './calibration-rules';
import { campaignCalibrationsOf, campaignPreviewRange, formFieldsOf } from './campaign-calibration-rules';
import { exclusionRange } from './exclusion-rules';
import { parseLocal } from './range-rules';

const columns = (mean: (number | null)[]) => ({ mean });

describe('formulaOf', () => {
  it('reads a linear formula, a polynomial one and a preset', () => {
    expect(formulaOf({ kind: 'linear', a: '2', b: '-1.5', coefficients: '' })).toEqual({
      kind: 'linear',
      a: 2,
      b: -1.5,
    });
    expect(formulaOf({ kind: 'polynomial', a: '', b: '', coefficients: '1, 0.5, 0.01' })).toEqual({
      kind: 'polynomial',
      coefficients: [1, 0.5, 0.01],
    });
    expect(formulaOf({ kind: 'epa-purpleair', a: '', b: '', coefficients: '' })).toEqual(EPA_PURPLEAIR_PRESET.formula);
  });

  it('reads an end (None) as a formula of kind none, and a saved end back into that choice', () => {
    expect(formulaOf({ kind: 'none', a: 'x', b: '', coefficients: '' })).toEqual({ kind: 'none' });
    expect(formFieldsOf({ kind: 'none' }).kind).toBe('none');
  });

  it('answers the schema’s message for a coefficient that is not a number', () => {
    expect(typeof formulaOf({ kind: 'linear', a: 'x', b: '0', coefficients: '' })).toBe('string');
    expect(typeof formulaOf({ kind: 'linear', a: '', b: '0', coefficients: '' })).toBe('string');
  });
});

describe('piecewise formulas and formFieldsOf', () => {
  const blank = { a: '', b: '', coefficients: '' };

  it('reads raw:corrected pairs, and answers the schema’s message for two points at the same raw value', () => {
    expect(formulaOf({ ...blank, kind: 'piecewise', points: '0:0, 50: 45, 200:170' })).toEqual({
      kind: 'piecewise',
      points: [
        { raw: 0, corrected: 0 },
        { raw: 50, corrected: 45 },
        { raw: 200, corrected: 170 },
      ],
    });
    expect(formulaOf({ ...blank, kind: 'piecewise', points: '10:1, 10:2' })).toContain('divide by zero');
    expect(typeof formulaOf({ ...blank, kind: 'piecewise', points: '10' })).toBe('string');
  });

  it('turns a saved formula back into the fields that make it', () => {
    const formulas = [
      { kind: 'linear' as const, a: 1.1, b: -2 },
      { kind: 'polynomial' as const, coefficients: [1, 0.5, 0.01] },
      {
        kind: 'piecewise' as const,
        points: [
          { raw: 0, corrected: 1 },
          { raw: 100, corrected: 90 },
        ],
      },
      EPA_PURPLEAIR_PRESET.formula,
    ];
    for (const formula of formulas) expect(formulaOf(formFieldsOf(formula))).toEqual(formula);
    expect(formFieldsOf(EPA_PURPLEAIR_PRESET.formula).kind).toBe('epa-purpleair');
    // One no preset names cannot be typed: the form starts blank.
    const other = { kind: 'linear-multi' as const, intercept: 1, terms: [{ measurement: 'co2', coefficient: 2 }] };
    expect(formFieldsOf(other).kind).toBe('linear');
  });
});

describe('campaignCalibrationsOf', () => {
  const record = (deviceId: string, version: number, created: number, note = 'Collocated') => ({
    id: `cal_${deviceId.padEnd(12, '0')}`,
    deviceId,
    measurement: 'pm2_5',
    version,
    formula: { kind: 'linear' as const, a: 2, b: 0 },
    effectiveFrom: 1_000,
    note,
    createdBy: 'u1',
    created,
    campaignId: 'c1',
  });

  it('lists one entry per campaign-wide change, with each device’s version, newest first', () => {
    const entries = campaignCalibrationsOf([record('d1', 3, 10), record('d2', 1, 12), record('d1', 4, 50, 'Replaced')]);
    expect(entries.map((e) => [e.note, e.created, e.devices])).toEqual([
      ['Replaced', 50, [{ deviceId: 'd1', version: 4 }]],
      [
        'Collocated',
        12,
        [
          { deviceId: 'd1', version: 3 },
          { deviceId: 'd2', version: 1 },
        ],
      ],
    ]);
  });
});

describe('campaignPreviewRange', () => {
  const answer = { from: 1_000_000, to: 9_000_000 };

  it('reads the window from its start, or from where the device’s tier window starts, moved on with the time since', () => {
    expect(campaignPreviewRange(answer, { from: 1_000_000 }, 500, 90_500)).toEqual(answer);
    expect(campaignPreviewRange(answer, undefined, 500, 90_500)).toEqual(answer);
    expect(campaignPreviewRange(answer, { from: 2_000_000 }, 500, 90_500)).toEqual({ from: 2_090_000, to: 9_000_000 });
  });
});

describe('periodOf and exclusionRange', () => {
  it('needs a start, and an end not before it', () => {
    expect(periodOf({ effectiveFrom: '', effectiveTo: '' })).toBe('Choose from when the calibration holds');
    expect(periodOf({ effectiveFrom: '2026-03-02T10:00', effectiveTo: '2026-03-01T10:00' })).toBe(
      'effectiveTo must not be before effectiveFrom',
    );
    expect(periodOf({ effectiveFrom: '2026-03-02T10:00', effectiveTo: '' })).toEqual({
      effectiveFrom: parseLocal('2026-03-02T10:00'),
    });
  });

  it('counts the end minute whole', () => {
    const from = parseLocal('2026-03-02T10:00')!;
    expect(exclusionRange({ from: '2026-03-02T10:00', to: '2026-03-02T10:05' })).toEqual({
      from,
      to: from + 5 * 60_000 + 59_999,
    });
    expect(exclusionRange({ from: '', to: '2026-03-02T10:05' })).toBe('Choose both a start and an end');
  });
});

describe('previewLines', () => {
  const raw = {
    t: [0, 100, 200],
    bucketMs: 100,
    series: {
      pm2_5: columns([10, null, 30]),
      humidity: columns([50, 60, 40]),
    },
  };

  it('corrects inside the period only, skipping buckets without the measurement', () => {
    const lines = previewLines(raw, 'pm2_5', { kind: 'linear', a: 2, b: 1 }, { effectiveFrom: 200 });
    expect(lines).toEqual({ x: [50, 250], raw: [10, 30], corrected: [10, 61] });
  });

  it('reads a linear-multi formula’s inputs from the same bucket', () => {
    const lines = previewLines(raw, 'pm2_5', EPA_PURPLEAIR_PRESET.formula, { effectiveFrom: 0 });
    expect(lines.corrected[1]).toBeCloseTo(0.52 * 30 - 0.086 * 40 + 5.75, 9);
  });
});
