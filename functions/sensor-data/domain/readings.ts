import type { Caller } from '../../../shared/auth/verify-token';
import type { TimeRange } from '../../../shared/campaigns/window';
import type {
  DataSummary,
  ReadingsPage,
  Series,
  TierInfo,
  TiersTable,
} from '../../../shared/contracts/sensor-data-readings';
import { PRODUCT_LINES } from '../../../shared/contracts/shapes';
import { dayStart } from '../../../shared/sensor-data/chart-files';
import { labelOf, unitOf } from '../../../shared/sensor-data/measurements';
import { DAY_MS, type TierRow, type TierTable } from '../../../shared/sensor-data/tiers';
import {
  type DataAccess,
  type DataAccessModule,
  type DataPurpose,
  rangeEnd,
  reachDays,
  readableRanges,
} from '../../_shared/sensor-data/data-access';
import type { ReadingsStore, StoredReading } from '../../_shared/sensor-data/readings-store';
import { bucketMsFor, createBuckets, resolutionFor } from './downsample';
import { createSeriesPoints, describeColumns, type RollupReader } from './series-points';

export interface ReadingsDeps {
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  readings: Pick<ReadingsStore, 'query' | 'scan'>;
  rollups: RollupReader;
  now: () => number;
}

const tierInfo = (row: TierRow): TierInfo => ({
  tier: row.tier,
  name: row.name,
  features: row.features,
  chosen: row.chosen,
});

/**
 * The first readings a page may show, read beside the session record before the device's tier is known
 * (docs/decisions/013-read-ahead-with-the-session-record.md): the newest up to where the page ends, back to the start
 * of that UTC day (one partition: one Query) or the asked `from`, as many as the page could want. `at` is the
 * request's now, which the page then uses too, so both agree on where it ends.
 */
export class EarlyPage {
  constructor(
    readonly at: number,
    readonly range: TimeRange,
    readonly limit: number,
    readonly readings: Promise<StoredReading[]>,
  ) {
    // A request refused after this started (a revoked session, no access) never reads it.
    readings.catch(() => undefined);
  }
}

/**
 * The newest readings of each readable part, newest part first, until `wanted` are found. The newest part takes what
 * the early read found in it when that read ends where the part does: the early read holds the newest readings of
 * `[early.from, to]`, at least `wanted` of them or all, so those from the part's start on are the part's newest there,
 * and only what lies before the early read's start is left to read.
 */
const newestFirst = async (
  readings: ReadingsDeps['readings'],
  deviceId: string,
  parts: readonly TimeRange[],
  wanted: number,
  early?: EarlyPage,
): Promise<StoredReading[]> => {
  const found: StoredReading[] = [];
  let unused = early && early.limit >= wanted ? early : undefined;
  for (const part of [...parts].reverse()) {
    if (found.length >= wanted) break;
    let to = part.to;
    if (unused && unused.range.to === part.to) {
      found.push(...(await unused.readings).filter((r) => r.timestamp >= part.from).slice(0, wanted));
      to = Math.min(part.to, unused.range.from - 1);
    }
    unused = undefined;
    if (found.length >= wanted || to < part.from) continue;
    found.push(
      ...(await readings.query(deviceId, { from: part.from, to, order: 'desc', limit: wanted - found.length })),
    );
  }
  return found;
};

/**
 * The reads of a device's data (docs/sensor-data.md, "Reads and charts"): pages of readings, chart series and
 * what the caller may see, each through the one data-access module, so the tier's and a campaign's windows
 * apply alike everywhere.
 */
export const createReadings = ({ dataAccess, readings, rollups, now }: ReadingsDeps) => {
  const points = createSeriesPoints({ readings, rollups });
  const windowOf = (access: DataAccess, purpose: DataPurpose, at: number) => {
    const days = reachDays(access, purpose);
    return { days, from: days === null ? null : Math.max(0, at - days * DAY_MS) };
  };

  return {
    /**
     * Starts the page's first Query before access is decided (a route's read-beside); `list` takes it as `early`.
     * A first page only: what a refused caller can make the store read is one page of one day, never an offset's worth.
     */
    startPage: (
      deviceId: string,
      query: { from?: number; to?: number; limit: number; offset: number },
    ): EarlyPage | undefined => {
      if (query.offset > 0) return undefined;
      const at = now();
      const to = rangeEnd(query, at);
      const range = { from: Math.max(query.from ?? 0, dayStart(to)), to };
      const limit = query.offset + query.limit + 1;
      return new EarlyPage(at, range, limit, readings.query(deviceId, { ...range, order: 'desc', limit }));
    },

    /** Spec §9 paging: offset and limit count only readings inside the readable parts (the rest are skipped). */
    list: async (
      caller: Caller | undefined,
      deviceId: string,
      query: { from?: number; to?: number; limit: number; offset: number },
      /** The access the request already resolved (the handler's gate, from what it read ahead), so it is not read twice. */
      resolved?: DataAccess,
      /** The page's first Query, started beside the session record (`startPage`). */
      early?: EarlyPage,
    ): Promise<ReadingsPage> => {
      const at = early?.at ?? now();
      const access = resolved ?? (await dataAccess.resolve(caller, deviceId));
      const { range, parts } = readableRanges(access, 'view', query, at);
      // One more than the page says whether there is a next one.
      const found = await newestFirst(readings, deviceId, parts, query.offset + query.limit + 1, early);
      return {
        items: found.slice(query.offset, query.offset + query.limit),
        limit: query.limit,
        offset: query.offset,
        hasMore: found.length > query.offset + query.limit,
        window: { from: range.from, to: Math.max(range.from, range.to) },
        tier: { tier: access.tier.tier, name: access.tier.name },
      };
    },

    /**
     * Min, max and mean per bucket of about a pixel. Short ranges bucket the raw readings; long ones the hourly
     * or daily roll-ups, of which only periods wholly inside a readable part count (periodFits).
     */
    series: async (
      caller: Caller | undefined,
      deviceId: string,
      query: { from?: number; to?: number; width: number; measurements?: string[] },
      resolved?: DataAccess,
    ): Promise<Series> => {
      const at = now();
      const access = resolved ?? (await dataAccess.resolve(caller, deviceId));
      const { range, parts } = readableRanges(access, 'view', query, at);
      const to = Math.max(range.from, range.to);
      const resolution = resolutionFor({ from: range.from, to });
      const bucketMs = bucketMsFor({ from: range.from, to }, query.width, resolution);
      const buckets = createBuckets({ from: range.from, to }, bucketMs);
      const wanted = query.measurements ? new Set(query.measurements) : undefined;
      await points(buckets, deviceId, resolution, parts, wanted, at);

      const { t, series } = buckets.result(query.measurements);
      const declared = access.device.measurementUnits;
      return {
        deviceId,
        from: range.from,
        to,
        resolution,
        bucketMs,
        t,
        series: Object.fromEntries(
          Object.entries(series).map(([name, columns]) => [name, describeColumns(name, columns, declared)]),
        ),
      };
    },

    /** What the caller may see of the device's data, and what the next tier would add. */
    summary: async (caller: Caller | undefined, deviceId: string, resolved?: DataAccess): Promise<DataSummary> => {
      const at = now();
      const access = resolved ?? (await dataAccess.resolve(caller, deviceId));
      const { device, tier, lineTiers } = access;
      const next = lineTiers[lineTiers.findIndex((row) => row.tier === tier.tier) + 1];
      return {
        deviceId,
        productLine: device.productLine,
        tier: tierInfo(tier),
        ...(next ? { nextTier: tierInfo(next) } : {}),
        tiers: lineTiers.map(tierInfo),
        route: access.route,
        windows: {
          view: windowOf(access, 'view', at),
          download: windowOf(access, 'download', at),
          api: windowOf(access, 'api', at),
        },
        ...(access.windows ? { campaignWindows: access.windows.map((w) => ({ ...w })) } : {}),
        measurements: (device.measurementNames ?? []).map((name) => {
          const unit = unitOf(name, device.measurementUnits);
          return { name, label: labelOf(name), ...(unit ? { unit } : {}) };
        }),
        ...(device.lastSeen ? { lastSeen: device.lastSeen } : {}),
      };
    },
  };
};

export type Readings = ReturnType<typeof createReadings>;

/** Spec §9's tiers table as it is in force (stored or the seed), as the pricing and info displays show it. */
export const tiersTable = (table: TierTable): TiersTable => ({
  productLines: PRODUCT_LINES.map((productLine) => ({
    productLine,
    tiers: table[productLine].map(tierInfo),
  })),
});
