import {
  applyFormula,
  calibrationAt,
  EPA_PURPLEAIR_PRESET,
  endedBy,
  Formula,
  formulaText,
  NO_CALIBRATION_TEXT,
} from './calibration';

const issues = (value: unknown) => {
  const parsed = Formula.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('calibration formulas', () => {
  it('applies each kind to the raw value, never changing it', () => {
    expect(applyFormula({ kind: 'linear', a: 0.5, b: 2 }, 10, {})).toBe(7);
    // 1 + 2x + 3x²
    expect(applyFormula({ kind: 'polynomial', coefficients: [1, 2, 3] }, 2, {})).toBe(17);
    const piecewise: Formula = {
      kind: 'piecewise',
      points: [
        { raw: 0, corrected: 0 },
        { raw: 10, corrected: 5 },
        { raw: 20, corrected: 25 },
      ],
    };
    expect(applyFormula(piecewise, 5, {})).toBe(2.5);
    expect(applyFormula(piecewise, 15, {})).toBe(15);
    // Past the ends, the end segments carry on.
    expect(applyFormula(piecewise, -10, {})).toBe(-5);
    expect(applyFormula(piecewise, 30, {})).toBe(45);
  });

  it('reads the other measurements of the same reading for linear-multi (the EPA PurpleAir preset)', () => {
    const epa = EPA_PURPLEAIR_PRESET.formula;
    expect(applyFormula(epa, 20, { pm2_5: 20, humidity: 50 })).toBeCloseTo(0.52 * 20 - 0.086 * 50 + 5.75, 10);
    // Without an input the value stays raw (the reader answers it uncorrected).
    expect(applyFormula(epa, 20, { pm2_5: 20 })).toBeUndefined();
    expect(formulaText(epa, 'pm2_5')).toBe('0.52·pm2_5 − 0.086·humidity + 5.75');
    expect(formulaText({ kind: 'linear', a: 1.1, b: -3 }, 'pm10')).toBe('1.1·pm10 − 3');
  });

  it('refuses a bad formula naming the field: a division by zero, a NaN, a field of another kind', () => {
    expect(
      issues({
        kind: 'piecewise',
        points: [
          { raw: 1, corrected: 1 },
          { raw: 1, corrected: 3 },
        ],
      }),
    ).toEqual(["points.1.raw: raw 1 equals the previous point's: the slope between them would divide by zero"]);
    expect(issues({ kind: 'linear', a: Number.NaN, b: 0 })).toEqual(['a: a must be a finite number']);
    expect(issues({ kind: 'linear', a: 1 })).toEqual(['b: A linear formula needs b']);
    expect(issues({ kind: 'linear', a: 1, b: 0, coefficients: [1] })).toEqual([
      'coefficients: coefficients is not part of a linear formula',
    ]);
    expect(issues({ kind: 'cubic' })[0]).toMatch(/^kind: kind must be one of: linear, polynomial/);
    expect(
      issues({
        kind: 'linear-multi',
        intercept: 1,
        terms: [
          { measurement: 'pm2_5', coefficient: 1 },
          { measurement: 'pm2_5', coefficient: 2 },
        ],
      }),
    ).toEqual(['terms.1.measurement: pm2_5 is named twice']);
    expect(
      issues({ kind: 'linear-multi', intercept: 1, terms: [{ measurement: 'PM 2.5', coefficient: 1 }] })[0],
    ).toMatch(/^terms\.0\.measurement: /);
  });

  it('takes the highest version whose period holds the time, both ends included', () => {
    const v1 = { version: 1, formula: { kind: 'linear', a: 1, b: 1 } as Formula, effectiveFrom: 0 };
    const v2 = { version: 2, formula: { kind: 'linear', a: 1, b: 2 } as Formula, effectiveFrom: 100, effectiveTo: 200 };
    const versions = [v2, v1];
    expect(calibrationAt(versions, 50)).toBe(v1);
    expect(calibrationAt(versions, 100)).toBe(v2);
    expect(calibrationAt(versions, 200)).toBe(v2);
    expect(calibrationAt(versions, 201)).toBe(v1);
    expect(calibrationAt(versions, -1)).toBeUndefined();
  });

  it('an end (`none`) takes no fields, corrects nothing and holds where its period does, as any version', () => {
    expect(issues({ kind: 'none' })).toEqual([]);
    expect(issues({ kind: 'none', a: 1 })).toEqual(['a: a is not part of a none formula']);
    expect(applyFormula({ kind: 'none' }, 12, { pm2_5: 12 })).toBeUndefined();
    expect(formulaText({ kind: 'none' }, 'pm2_5')).toBe(NO_CALIBRATION_TEXT);
    const v1 = { version: 1, formula: { kind: 'linear', a: 2, b: 0 } as Formula, effectiveFrom: 100 };
    const end = { version: 2, formula: { kind: 'none' } as Formula, effectiveFrom: 300 };
    const versions = [end, v1];
    expect(calibrationAt(versions, 299)).toBe(v1);
    expect(calibrationAt(versions, 300)).toBe(end);
    // What an end from a time would end: the version in force then; nothing before the first start or after an end.
    expect(endedBy([v1], 150)).toBe(v1);
    expect(endedBy([v1], 99)).toBeUndefined();
    expect(endedBy(versions, 400)).toBeUndefined();
  });
});
