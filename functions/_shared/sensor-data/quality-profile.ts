import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Reading } from '../../../shared/contracts/sensor-data-readings';
import {
  applyFormula,
  type CalibrationPeriod,
  calibrationAt,
  type Formula,
} from '../../../shared/sensor-data/calibration';
import {
  keeps,
  type Quality,
  type QualityFilter,
  type QualityReason,
  qualityOf,
  type ValueChoice,
} from '../../../shared/sensor-data/quality';
import { type KeyRead, type ReadAhead, readKey } from '../read-ahead';
import type { StoredReading } from './readings-store';

/**
 * A device's quality profile (docs/data-quality.md): the calibrations and active exclusions every reader applies,
 * kept compact in one item of the data-quality table (`sk = 'profile'`) so that a read takes it with the device's
 * other records in its one read-ahead BatchGetItem. The full records (notes, sources, who, reasons, removed
 * exclusions) are items of their own beside it; the sensor-data area writes both.
 */

/** A calibration version as the profile keeps it. */
export interface ProfileCalibration {
  /** The version (1, 2, … per device and measurement). */
  v: number;
  /** The full record's id. */
  id: string;
  f: Formula;
  from: number;
  to?: number;
}

/** An active exclusion as the profile keeps it: `m` absent is every measurement. */
export interface ProfileExclusion {
  id: string;
  from: number;
  to: number;
  m?: string[];
}

/**
 * A change whose range's roll-ups are not yet computed again (docs/data-quality.md "Reprocessing"): the profile
 * version it made, its range and what it was. Reprocessing takes it off the list.
 */
export interface PendingChange {
  v: number;
  from: number;
  to: number;
  kind: 'calibration' | 'exclusion';
}

/** The profile item as stored. */
export interface StoredProfile {
  deviceId: string;
  sk: 'profile';
  /** Raised by every change; each roll-up records the version it was computed with. */
  version: number;
  cal?: Record<string, ProfileCalibration[]>;
  exc?: ProfileExclusion[];
  pending?: PendingChange[];
}

/** The profile as readers use it: calibrations per measurement, highest version first. */
export interface QualityProfile {
  version: number;
  calibrations: ReadonlyMap<string, readonly (CalibrationPeriod & { id: string })[]>;
  exclusions: readonly ProfileExclusion[];
  pending: readonly PendingChange[];
}

export const EMPTY_PROFILE: QualityProfile = { version: 0, calibrations: new Map(), exclusions: [], pending: [] };

export const PROFILE_SK = 'profile';

export const profileOf = (item: Partial<StoredProfile> | undefined): QualityProfile => {
  if (!item) return EMPTY_PROFILE;
  const calibrations = new Map<string, (CalibrationPeriod & { id: string })[]>();
  for (const [name, versions] of Object.entries(item.cal ?? {})) {
    calibrations.set(
      name,
      versions
        .map((c) => ({
          version: c.v,
          id: c.id,
          formula: c.f,
          effectiveFrom: c.from,
          ...(c.to === undefined ? {} : { effectiveTo: c.to }),
        }))
        .sort((a, b) => b.version - a.version),
    );
  }
  return {
    version: item.version ?? 0,
    calibrations,
    exclusions: [...(item.exc ?? [])].sort((a, b) => a.from - b.from),
    pending: item.pending ?? [],
  };
};

/** Does the profile change anything a reader answers? */
export const isPlain = (profile: QualityProfile) => profile.calibrations.size === 0 && profile.exclusions.length === 0;

/**
 * A reading as readers answer it (docs/data-quality.md "Readers"): `values` corrected where a calibration holds,
 * `raw` as stored, both without excluded values; `reasons` of every value that is not good (an excluded one's say
 * `excluded`), and the calibration version of each corrected value.
 */
export interface ReadingView {
  timestamp: number;
  values: Record<string, number>;
  raw: Record<string, number>;
  reasons: Record<string, QualityReason[]>;
  calibration: Record<string, number>;
}

/** The exclusions holding `time`, for `name` (or any measurement when `name` is absent). */
const excludedAt = (exclusions: readonly ProfileExclusion[], time: number) => {
  let all = false;
  let names: Set<string> | undefined;
  for (const exclusion of exclusions) {
    if (exclusion.from > time) break;
    if (exclusion.to < time) continue;
    if (!exclusion.m) all = true;
    else {
      names ??= new Set();
      for (const name of exclusion.m) names.add(name);
    }
  }
  return { all, names };
};

/** One stored reading through a profile: corrections applied, excluded values taken out, reasons said. */
export const viewReading = (reading: StoredReading, profile: QualityProfile): ReadingView => {
  const reasons: Record<string, QualityReason[]> = reading.flags ? { ...reading.flags } : {};
  if (isPlain(profile)) {
    return { timestamp: reading.timestamp, values: reading.values, raw: reading.values, reasons, calibration: {} };
  }
  const { all, names } = profile.exclusions.length
    ? excludedAt(profile.exclusions, reading.timestamp)
    : { all: false, names: undefined };
  const values: Record<string, number> = {};
  const raw: Record<string, number> = {};
  const calibration: Record<string, number> = {};
  for (const [name, value] of Object.entries(reading.values)) {
    if (all || names?.has(name)) {
      reasons[name] = [...(reasons[name] ?? []), 'excluded'];
      continue;
    }
    raw[name] = value;
    const versions = profile.calibrations.get(name);
    const period = versions && calibrationAt(versions, reading.timestamp);
    const corrected = period && applyFormula(period.formula, value, reading.values);
    if (corrected === undefined) {
      values[name] = value;
    } else {
      values[name] = corrected;
      calibration[name] = period!.version;
    }
  }
  return { timestamp: reading.timestamp, values, raw, reasons, calibration };
};

/** A value's quality in a view: excluded values are bad, flagged ones as their reasons say. */
export const viewQuality = (view: ReadingView, name: string) => qualityOf(view.reasons[name]);

/** What a read keeps and answers: quality=all|good|no-bad, values=corrected|raw|both. */
export interface QualityChoice {
  quality: QualityFilter;
  values: ValueChoice;
}

/**
 * One stored reading as a reader answers it (docs/data-quality.md "Readers"), or undefined when nothing of it is
 * kept: values corrected where a calibration holds (or raw, or both), each with its quality, the reasons of those that
 * are not good and the calibration version used. Excluded values are gone; with `quality=all` their quality and
 * reason still say so, as long as some value of the reading is left.
 */
export const answerReading = (
  reading: StoredReading,
  profile: QualityProfile,
  { quality: filter, values: choice }: QualityChoice,
): Reading | undefined => {
  const view = viewReading(reading, profile);
  const values: Record<string, number> = {};
  const raw: Record<string, number> = {};
  const quality: Record<string, Quality> = {};
  const reasons: Record<string, QualityReason[]> = {};
  const calibration: Record<string, number> = {};
  let any = false;
  for (const [name, rawValue] of Object.entries(view.raw)) {
    const q = qualityOf(view.reasons[name]);
    if (!keeps(filter, q)) continue;
    any = true;
    values[name] = choice === 'raw' ? rawValue : view.values[name]!;
    if (choice === 'both') raw[name] = rawValue;
    quality[name] = q;
    if (q !== 'good') reasons[name] = view.reasons[name]!;
    const version = view.calibration[name];
    if (choice !== 'raw' && version !== undefined) calibration[name] = version;
  }
  if (!any) return undefined;
  if (filter === 'all') {
    for (const [name, why] of Object.entries(view.reasons)) {
      if (view.raw[name] !== undefined || !why.includes('excluded')) continue;
      quality[name] = 'bad';
      reasons[name] = why;
    }
  }
  return {
    timestamp: reading.timestamp,
    values,
    ...(choice === 'both' ? { raw } : {}),
    quality,
    ...(Object.keys(reasons).length ? { reasons } : {}),
    ...(Object.keys(calibration).length ? { calibration } : {}),
  };
};

/**
 * A readings scan (the store's, oldest first, in chunks) as readers answer it: through the profile, kept by quality,
 * excluded values gone. What downloads and datasets write.
 */
export const answeredScan = (
  scan: (deviceId: string, range: { from: number; to: number }) => AsyncIterable<readonly StoredReading[]>,
  profile: QualityProfile,
  choice: QualityChoice,
) =>
  async function* (deviceId: string, range: { from: number; to: number }): AsyncGenerator<Reading[]> {
    for await (const chunk of scan(deviceId, range)) {
      const answered: Reading[] = [];
      for (const reading of chunk) {
        const kept = answerReading(reading, profile, choice);
        if (kept) answered.push(kept);
      }
      // A chunk left empty still says how far the scan has come (its last reading, with no value: no row).
      const last = chunk[chunk.length - 1];
      yield answered.length === 0 && last ? [{ timestamp: last.timestamp, values: {} }] : answered;
    }
  };

/**
 * What of a profile holds over some ranges: the calibration versions whose periods meet them (by measurement, then
 * version) and the exclusions that do. A dataset names them in its manifest (docs/datasets.md "The manifest").
 */
export const appliedOver = (profile: QualityProfile, parts: readonly { from: number; to: number }[]) => {
  const meets = (from: number, to: number | undefined) =>
    parts.some((part) => from <= part.to && (to === undefined || to >= part.from));
  return {
    calibrations: [...profile.calibrations]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([measurement, versions]) =>
        versions
          .filter((c) => meets(c.effectiveFrom, c.effectiveTo))
          .sort((a, b) => a.version - b.version)
          .map((c) => ({
            measurement,
            version: c.version,
            id: c.id,
            formula: c.formula as unknown as Record<string, unknown>,
            effectiveFrom: c.effectiveFrom,
            ...(c.effectiveTo === undefined ? {} : { effectiveTo: c.effectiveTo }),
          })),
      ),
    exclusions: profile.exclusions
      .filter((e) => meets(e.from, e.to))
      .map((e) => ({ id: e.id, from: e.from, to: e.to, ...(e.m ? { measurements: e.m } : {}) })),
  };
};

/** Reads a device's profile, by key: with the request's read-ahead when it is there (docs/sensor-data.md "Read path"). */
export const createQualityProfiles = ({ db, tableName }: { db: DynamoDBDocumentClient; tableName: string }) => {
  // Consistent: an exclusion made a moment ago must leave the very next read.
  const keyRead = (deviceId: string): KeyRead => ({
    table: tableName,
    key: { deviceId, sk: PROFILE_SK },
    consistent: true,
  });
  return {
    keyRead,
    read: async (deviceId: string, ahead?: ReadAhead): Promise<QualityProfile> =>
      profileOf((await readKey(db, keyRead(deviceId), ahead)) as Partial<StoredProfile> | undefined),
  };
};

export type QualityProfiles = ReturnType<typeof createQualityProfiles>;
