import type { Calibration } from '../../../../shared/contracts/sensor-data-quality';
import { CALIBRATION_PRESETS, type Formula } from '../../../../shared/sensor-data/calibration';
import { type CalibrationForm, EMPTY_CALIBRATION_FORM } from './calibration-rules';

/*
 * The campaign's calibrations' rules (docs/data-quality.md "Screens"): its list, Replace… and the preview's range. A
 * module of the campaign's chunk alone, so the device page's calibration form does not carry them.
 */

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
    case 'none':
      return { ...blank, kind: 'none' };
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
