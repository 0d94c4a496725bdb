import * as z from 'zod';
import { ownValue } from '../objects/own-value';
import { MeasurementName } from './measurements';

/**
 * Calibration formulas (docs/data-quality.md "Calibrations"): what turns a raw value into the corrected one. The API
 * checks them and the readers apply them; the web app applies the same code to preview a calibration over the raw
 * line before it is saved. The raw value is never changed: a correction is computed when it is read.
 */
export const FORMULA_KINDS = ['linear', 'polynomial', 'piecewise', 'linear-multi', 'none'] as const;
export type FormulaKind = (typeof FORMULA_KINDS)[number];

/** Coefficients are finite numbers of a size a calibration can mean; larger ones are a typing mistake. */
export const MAX_COEFFICIENT = 1e6;
export const MAX_POLYNOMIAL_DEGREE = 5;
export const MAX_PIECEWISE_POINTS = 20;
export const MAX_FORMULA_TERMS = 8;

const coefficient = (label: string) =>
  z
    .number({ error: `${label} must be a finite number` })
    .min(-MAX_COEFFICIENT, `${label} is at least -${MAX_COEFFICIENT}`)
    .max(MAX_COEFFICIENT, `${label} is at most ${MAX_COEFFICIENT}`);

/** One breakpoint of a piecewise formula: a raw value and what it becomes. */
const Point = z.object({ raw: coefficient('raw'), corrected: coefficient('corrected') }).strict();
const Term = z.object({ measurement: MeasurementName, coefficient: coefficient('coefficient') }).strict();

/** Which fields each kind takes: a field of another kind is refused, so a mistyped kind is not read as another. */
const FIELDS: Record<FormulaKind, readonly string[]> = {
  linear: ['a', 'b'],
  polynomial: ['coefficients'],
  piecewise: ['points'],
  'linear-multi': ['intercept', 'terms'],
  none: [],
};

/**
 * A formula: `linear` a·x + b; `polynomial` c0 + c1·x + … + c5·x⁵; `piecewise` straight lines between breakpoints of
 * the raw value (extended past the first and last); `linear-multi` intercept + Σ coefficient·(a measurement of the same
 * reading), e.g. the US EPA's PurpleAir correction 0.52·pm2_5 − 0.086·humidity + 5.75. One object with the kind's
 * fields, checked by hand rather than a zod union (this contract is in the web app's entry). `none` is an end: a version
 * saying that from its start no calibration holds, so readers answer the values as sent and name no version
 * (decision 103).
 */
export const Formula = z
  .object({
    kind: z.enum(FORMULA_KINDS, { error: () => `kind must be one of: ${FORMULA_KINDS.join(', ')}` }),
    a: coefficient('a').optional(),
    b: coefficient('b').optional(),
    coefficients: z
      .array(coefficient('coefficient'))
      .min(1, 'coefficients needs at least one number (c0)')
      .max(
        MAX_POLYNOMIAL_DEGREE + 1,
        `At most ${MAX_POLYNOMIAL_DEGREE + 1} coefficients (degree ${MAX_POLYNOMIAL_DEGREE})`,
      )
      .optional(),
    points: z
      .array(Point)
      .min(2, 'points needs at least two breakpoints')
      .max(MAX_PIECEWISE_POINTS, `At most ${MAX_PIECEWISE_POINTS} points`)
      .optional(),
    intercept: coefficient('intercept').optional(),
    terms: z
      .array(Term)
      .min(1, 'terms needs at least one measurement')
      .max(MAX_FORMULA_TERMS, `At most ${MAX_FORMULA_TERMS} terms`)
      .optional(),
  })
  .strict()
  .superRefine((formula, context) => {
    const wanted = FIELDS[formula.kind];
    for (const field of Object.values(FIELDS).flat()) {
      const present = (formula as Record<string, unknown>)[field] !== undefined;
      if (wanted.includes(field) && !present) {
        context.addIssue({ code: 'custom', path: [field], message: `A ${formula.kind} formula needs ${field}` });
      } else if (!wanted.includes(field) && present) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} is not part of a ${formula.kind} formula`,
        });
      }
    }
    formula.points?.forEach((point, i) => {
      const before = formula.points![i - 1];
      if (!before) return;
      if (point.raw === before.raw) {
        context.addIssue({
          code: 'custom',
          path: ['points', i, 'raw'],
          message: `raw ${point.raw} equals the previous point's: the slope between them would divide by zero`,
        });
      } else if (point.raw < before.raw) {
        context.addIssue({
          code: 'custom',
          path: ['points', i, 'raw'],
          message: 'points must be in ascending order of raw',
        });
      }
    });
    const seen = new Set<string>();
    formula.terms?.forEach((term, i) => {
      if (seen.has(term.measurement)) {
        context.addIssue({
          code: 'custom',
          path: ['terms', i, 'measurement'],
          message: `${term.measurement} is named twice`,
        });
      }
      seen.add(term.measurement);
    });
  });
export type Formula = z.infer<typeof Formula>;

/** The measurements a formula reads besides the one it corrects (a linear-multi formula's terms). */
export const formulaInputs = (formula: Formula): string[] => formula.terms?.map((term) => term.measurement) ?? [];

/**
 * The corrected value of `raw`, whose reading holds `reading` (raw values by measurement); undefined under an end
 * (`none`), when a linear-multi input is missing from the reading or when the result is not a finite number: the
 * value then stays raw, and no version is said to be used.
 */
export const applyFormula = (formula: Formula, raw: number, reading: Readonly<Record<string, number>>) => {
  let value: number;
  switch (formula.kind) {
    case 'linear':
      value = formula.a! * raw + formula.b!;
      break;
    case 'polynomial': {
      const c = formula.coefficients!;
      value = 0;
      for (let i = c.length - 1; i >= 0; i--) value = value * raw + c[i]!;
      break;
    }
    case 'piecewise': {
      const points = formula.points!;
      let i = 1;
      while (i < points.length - 1 && raw > points[i]!.raw) i++;
      const left = points[i - 1]!;
      const right = points[i]!;
      value = left.corrected + ((raw - left.raw) * (right.corrected - left.corrected)) / (right.raw - left.raw);
      break;
    }
    case 'linear-multi': {
      value = formula.intercept!;
      for (const term of formula.terms!) {
        const input = ownValue(reading, term.measurement);
        if (input === undefined) return undefined;
        value += term.coefficient * input;
      }
      break;
    }
    case 'none':
      return undefined;
  }
  return Number.isFinite(value) ? value : undefined;
};

/** A calibration as a reader applies it: its version and formula, from when (and until when) it holds. */
export interface CalibrationPeriod {
  version: number;
  formula: Formula;
  /** ms, included. */
  effectiveFrom: number;
  /** ms, included; absent: until a later version says otherwise. */
  effectiveTo?: number;
}

/**
 * The calibration in force at `time`: of those whose period holds it, the highest version (a new version overrides
 * the older ones where their periods overlap, and nowhere else). `versions` sorted highest first.
 */
export const calibrationAt = <C extends CalibrationPeriod>(versions: readonly C[], time: number): C | undefined => {
  for (const version of versions) {
    if (time >= version.effectiveFrom && (version.effectiveTo === undefined || time <= version.effectiveTo)) {
      return version;
    }
  }
  return undefined;
};

/** A named formula people are offered, with where it comes from. */
export interface CalibrationPreset {
  id: string;
  label: string;
  measurement: string;
  formula: Formula;
  source: string;
}

/**
 * The US EPA's correction of PurpleAir PM2.5 (Barkjohn, Gantt and Clements, AMT 2021): from the sensor's cf_1 PM2.5
 * and relative humidity, it brings the error against reference monitors from about 8 to 3 µg/m³.
 */
export const EPA_PURPLEAIR_PRESET: CalibrationPreset = {
  id: 'epa-purpleair',
  label: 'US EPA correction of PurpleAir PM2.5',
  measurement: 'pm2_5',
  formula: {
    kind: 'linear-multi',
    intercept: 5.75,
    terms: [
      { measurement: 'pm2_5', coefficient: 0.52 },
      { measurement: 'humidity', coefficient: -0.086 },
    ],
  },
  source: 'US EPA PurpleAir correction (Barkjohn, Gantt & Clements, Atmos. Meas. Tech. 14, 4617–4637, 2021)',
};

export const CALIBRATION_PRESETS: readonly CalibrationPreset[] = [EPA_PURPLEAIR_PRESET];

/** A formula as one line a person reads: `0.52·pm2_5 − 0.086·humidity + 5.75`. */
export const formulaText = (formula: Formula, measurement: string): string => {
  const n = (value: number) => String(Number(value.toPrecision(6)));
  const sum = (parts: { coefficient: number; term: string }[]) =>
    parts
      .filter((part) => part.coefficient !== 0 || part.term === '')
      .map((part, i) => {
        const magnitude = Math.abs(part.coefficient);
        const body = part.term ? `${magnitude === 1 ? '' : `${n(magnitude)}·`}${part.term}` : n(magnitude);
        return i === 0 ? `${part.coefficient < 0 ? '−' : ''}${body}` : `${part.coefficient < 0 ? ' − ' : ' + '}${body}`;
      })
      .join('') || '0';
  switch (formula.kind) {
    case 'linear':
      return sum([
        { coefficient: formula.a!, term: measurement },
        ...(formula.b ? [{ coefficient: formula.b, term: '' }] : []),
      ]);
    case 'polynomial':
      return sum(
        formula
          .coefficients!.map((coefficient, i) => ({
            coefficient,
            term: i === 0 ? '' : i === 1 ? measurement : `${measurement}^${i}`,
          }))
          .reverse()
          .filter((part) => part.coefficient !== 0),
      );
    case 'piecewise':
      return `piecewise through ${formula.points!.map((p) => `(${n(p.raw)} → ${n(p.corrected)})`).join(', ')}`;
    case 'linear-multi':
      return sum([
        ...formula.terms!.map((term) => ({ coefficient: term.coefficient, term: term.measurement })),
        ...(formula.intercept ? [{ coefficient: formula.intercept, term: '' }] : []),
      ]);
    case 'none':
      return NO_CALIBRATION_TEXT;
  }
};

/** An end (`none`) as people read it, in lists and manifests' readers alike. */
export const NO_CALIBRATION_TEXT = 'no calibration (the values as sent)';

/** Is this version an end, after which no calibration holds, rather than a correction? */
export const isEnd = (formula: Pick<Formula, 'kind'>) => formula.kind === 'none';

/**
 * What an end from `at` would end: the calibration (not itself an end) in force at `at` among `versions` (highest
 * first); undefined when none is, e.g. an end before the first version's start or after another end.
 */
export const endedBy = <C extends CalibrationPeriod>(versions: readonly C[], at: number): C | undefined => {
  const held = calibrationAt(versions, at);
  return held && !isEnd(held.formula) ? held : undefined;
};
