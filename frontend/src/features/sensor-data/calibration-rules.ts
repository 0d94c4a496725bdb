import * as z from 'zod';
import type { Series } from '../../../../shared/contracts/sensor-data-readings';
import { applyFormula, CALIBRATION_PRESETS, Formula } from '../../../../shared/sensor-data/calibration';
import { parseLocal } from './range-rules';

/*
 * The calibration form's rules (docs/data-quality.md "Screens"), the device panel's and the campaign's: a module of
 * their own, apart from the chart's quality rules, so the device page and the campaign's chunk share only these.
 */

/** The calibration preview's colours: the raw line grey, the corrected one orange (the e2e reads them by colour). */
export const PREVIEW_COLOURS = { raw: '#64748b', corrected: '#ea580c' } as const;

/** The calibration form's fields, as typed. */
export interface CalibrationForm {
  /**
   * `linear`, `polynomial` (coefficients from x⁰ up, comma separated), `piecewise` (`raw:corrected` pairs, comma
   * separated), `none` (an end: no calibration from then on, decision 103), or a preset's id (the linear-multi
   * formulas people are offered).
   */
  kind: 'linear' | 'polynomial' | 'piecewise' | 'none' | string;
  a: string;
  b: string;
  coefficients: string;
  points: string;
  effectiveFrom: string;
  effectiveTo: string;
  note: string;
  source: string;
}

const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * The formula the form describes, checked by the contract's own schema, or the first thing wrong with it in the
 * API's words (the same message a POST would get).
 */
export const formulaOf = (
  form: Pick<CalibrationForm, 'kind' | 'a' | 'b' | 'coefficients'> & Partial<Pick<CalibrationForm, 'points'>>,
): Formula | string => {
  const preset = CALIBRATION_PRESETS.find((p) => p.id === form.kind);
  const pointOf = (pair: string) => {
    const [raw = '', corrected = ''] = pair.split(':');
    return { raw: number(raw), corrected: number(corrected) };
  };
  const candidate = preset
    ? preset.formula
    : form.kind === 'polynomial'
      ? { kind: 'polynomial', coefficients: form.coefficients.split(',').map(number) }
      : form.kind === 'piecewise'
        ? { kind: 'piecewise', points: (form.points ?? '').split(',').map(pointOf) }
        : form.kind === 'none'
          ? { kind: 'none' }
          : { kind: 'linear', a: number(form.a), b: number(form.b) };
  const parsed = Formula.safeParse(candidate);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? z.prettifyError(parsed.error));
};

/** A blank form: a linear formula starting from the line as sent (a = 1, b = 0), which a person then changes. */
export const EMPTY_CALIBRATION_FORM: CalibrationForm = {
  kind: 'linear',
  a: '1',
  b: '0',
  coefficients: '0, 1',
  points: '0:0, 100:100',
  effectiveFrom: '',
  effectiveTo: '',
  note: '',
  source: '',
};

/** The form's period as ms, or what is wrong with it. */
export const periodOf = (
  form: Pick<CalibrationForm, 'effectiveFrom' | 'effectiveTo'>,
): { effectiveFrom: number; effectiveTo?: number } | string => {
  const effectiveFrom = parseLocal(form.effectiveFrom);
  if (effectiveFrom === undefined) return 'Choose from when the calibration holds';
  if (form.effectiveTo === '') return { effectiveFrom };
  const effectiveTo = parseLocal(form.effectiveTo);
  if (effectiveTo === undefined) return 'The end is not a date and time';
  if (effectiveTo < effectiveFrom) return 'effectiveTo must not be before effectiveFrom';
  return { effectiveFrom, effectiveTo };
};

/**
 * The preview's two lines over the raw series: the raw means, and what the formula makes of them in each bucket
 * inside the period (a linear-multi formula reads the bucket's means of its other measurements). Outside the period,
 * or where an input is missing, the corrected line follows the raw one.
 */
export const previewLines = (
  raw: Pick<Series, 't' | 'bucketMs'> & { series: Readonly<Record<string, { mean: readonly (number | null)[] }>> },
  measurement: string,
  formula: Formula,
  period: { effectiveFrom: number; effectiveTo?: number },
): { x: number[]; raw: (number | null)[]; corrected: (number | null)[] } => {
  const columns = raw.series[measurement];
  const half = raw.bucketMs / 2;
  const x: number[] = [];
  const rawLine: (number | null)[] = [];
  const corrected: (number | null)[] = [];
  raw.t.forEach((start, i) => {
    const value = columns?.mean[i];
    if (value === null || value === undefined) return;
    const middle = start + half;
    const inside = middle >= period.effectiveFrom && (period.effectiveTo === undefined || middle <= period.effectiveTo);
    const reading = Object.fromEntries(
      Object.entries(raw.series).flatMap(([name, c]) => (c.mean[i] === null ? [] : [[name, c.mean[i]!]])),
    );
    x.push(middle);
    rawLine.push(value);
    corrected.push(inside ? (applyFormula(formula, value, reading) ?? value) : value);
  });
  return { x, raw: rawLine, corrected };
};
