import * as z from 'zod';
import type { Calibration, Reprocessing } from '../../../../shared/contracts/sensor-data-quality';
import type { MeasurementSeries, Series } from '../../../../shared/contracts/sensor-data-readings';
import { applyFormula, CALIBRATION_PRESETS, Formula } from '../../../../shared/sensor-data/calibration';
import { parseLocal } from './range-rules';

/** The marks' colours (docs/data-quality.md "Screens"): a hollow amber ring for suspect, a red dot for bad. */
export const MARK_COLOURS = { suspect: '#b45309', bad: '#dc2626' } as const;

/** The calibration preview's colours: the raw line grey, the corrected one orange (the e2e reads them by colour). */
export const PREVIEW_COLOURS = { raw: '#64748b', corrected: '#ea580c' } as const;

/** A bucket with flagged readings, where the chart marks it: at its highest value, where a spike shows. */
export interface QualityMark {
  /** ms, the bucket's middle. */
  x: number;
  y: number;
  /** Bad wins over suspect: a bucket with both is marked bad. */
  kind: 'suspect' | 'bad';
}

/** The marks of one measurement's chart (docs/data-quality.md "On the chart"): one per bucket holding a flag. */
export const qualityMarks = (series: Pick<Series, 't' | 'bucketMs'>, columns: MeasurementSeries): QualityMark[] => {
  const half = series.bucketMs / 2;
  return series.t.flatMap((start, i): QualityMark[] => {
    const y = columns.max[i] ?? columns.mean[i];
    if (y === null || y === undefined) return [];
    if ((columns.bad[i] ?? 0) > 0) return [{ x: start + half, y, kind: 'bad' }];
    if ((columns.suspect[i] ?? 0) > 0) return [{ x: start + half, y, kind: 'suspect' }];
    return [];
  });
};

/** The calibration form's fields, as typed. */
export interface CalibrationForm {
  /**
   * `linear`, `polynomial` (coefficients from x⁰ up, comma separated), `piecewise` (`raw:corrected` pairs, comma
   * separated), or a preset's id (the linear-multi formulas people are offered).
   */
  kind: 'linear' | 'polynomial' | 'piecewise' | string;
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
        : { kind: 'linear', a: number(form.a), b: number(form.b) };
  const parsed = Formula.safeParse(candidate);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? z.prettifyError(parsed.error));
};

/** A blank form: the line as sent (a = 1, b = 0), which a person then changes. */
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

/**
 * A saved formula as the form's fields, to start a replacement from it: its kind and numbers, or the preset it is.
 * A linear-multi formula no preset names cannot be typed in the form: it starts from a blank one.
 */
export const formFieldsOf = (
  formula: Formula,
): Pick<CalibrationForm, 'kind' | 'a' | 'b' | 'coefficients' | 'points'> => {
  const blank = EMPTY_CALIBRATION_FORM;
  const text = (value: number) => String(value);
  switch (formula.kind) {
    case 'linear':
      return { ...blank, kind: 'linear', a: text(formula.a!), b: text(formula.b!) };
    case 'polynomial':
      return { ...blank, kind: 'polynomial', coefficients: formula.coefficients!.map(text).join(', ') };
    case 'piecewise':
      return { ...blank, kind: 'piecewise', points: formula.points!.map((p) => `${p.raw}:${p.corrected}`).join(', ') };
    case 'linear-multi': {
      const same = CALIBRATION_PRESETS.find((p) => JSON.stringify(p.formula) === JSON.stringify(formula));
      return same ? { ...blank, kind: same.id } : { ...blank };
    }
  }
};

/**
 * A calibration made for a campaign's devices at once, as the campaign lists it: the one formula and period, and
 * which version it became on each device (versions count per device and measurement, so they differ).
 */
export interface CampaignCalibration {
  key: string;
  measurement: string;
  formula: Formula;
  effectiveFrom: number;
  effectiveTo?: number;
  note: string;
  source?: string;
  created: number;
  devices: { deviceId: string; version: number }[];
}

/**
 * The campaign route's answer (one record per device) as one entry per change, newest first: records of the same
 * measurement, formula, period, note, source and author are one campaign-wide change (each device's record has an id
 * of its own, and their times differ by the milliseconds the writes took).
 */
export const campaignCalibrationsOf = (items: readonly Calibration[]): CampaignCalibration[] => {
  const byChange = new Map<string, CampaignCalibration>();
  for (const item of items) {
    const key = JSON.stringify([
      item.measurement,
      item.formula,
      item.effectiveFrom,
      item.effectiveTo ?? null,
      item.note,
      item.source ?? null,
      item.createdBy,
    ]);
    const seen = byChange.get(key);
    const device = { deviceId: item.deviceId, version: item.version };
    if (seen) {
      seen.devices.push(device);
      seen.created = Math.max(seen.created, item.created);
    } else {
      byChange.set(key, {
        key,
        measurement: item.measurement,
        formula: item.formula,
        effectiveFrom: item.effectiveFrom,
        ...(item.effectiveTo === undefined ? {} : { effectiveTo: item.effectiveTo }),
        note: item.note,
        ...(item.source === undefined ? {} : { source: item.source }),
        created: item.created,
        devices: [device],
      });
    }
  }
  return [...byChange.values()].sort((a, b) => b.created - a.created);
};

/**
 * The range a campaign's calibration preview reads one device's raw line over: the campaign's window up to now, as
 * the comparison answered it, from where that device's line may start. A start the device's tier window set moves on
 * with the time since the answer (a window of the last 30 days starts later each minute), so it is moved as far.
 */
export const campaignPreviewRange = (
  answer: { from: number; to: number },
  device: { from?: number } | undefined,
  answeredAt: number,
  now: number,
): { from: number; to: number } => {
  const clipped = device?.from !== undefined && device.from > answer.from;
  const from = clipped ? device.from! + Math.max(0, now - answeredAt) : answer.from;
  return { from: Math.min(from, answer.to - 60_000), to: answer.to };
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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** "3 of 8 days", or in hours for a run under two days (a run's ranges are whole hours). */
const spanText = (doneMs: number, totalMs: number) => {
  const [unit, ms] = totalMs >= 2 * DAY_MS ? ['days', DAY_MS] : ['hours', HOUR_MS];
  return `${Math.floor(doneMs / ms)} of ${Math.max(1, Math.round(totalMs / ms))} ${unit}`;
};

/**
 * The quality panel's reprocessing line (docs/data-quality.md "Screens"): how far a run is while one is under way; once
 * the panel has seen one under way (or its person started one), that it is done; else that the charts hold every change.
 */
export const reprocessingText = (state: Reprocessing | undefined, watched: boolean): string => {
  if (!state) return '';
  if (state.status === 'running') {
    const span =
      state.doneMs !== undefined && state.totalMs
        ? ` — ${spanText(state.doneMs, state.totalMs)}`
        : ' — waiting to start';
    return `Reprocessing: ${state.progress} %${span}`;
  }
  return watched
    ? 'Reprocessing done: the charts show every change.'
    : 'Charts and roll-ups include every calibration and exclusion.';
};
