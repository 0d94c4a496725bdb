import type { Caller } from '../../../shared/auth/verify-token';
import type { TimeRange } from '../../../shared/campaigns/window';
import {
  type CampaignSeries,
  type ComparedDevice,
  type DeviceLine,
  MAX_COMPARED_DEVICES,
} from '../../../shared/contracts/sensor-data-campaigns';
import { MESSAGES } from '../../../shared/messages';
import { labelOf, unitOf } from '../../../shared/sensor-data/measurements';
import type { Access } from '../../_shared/access/access';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../_shared/errors';
import type { KeyRead, ReadAhead } from '../../_shared/read-ahead';
import {
  type DataAccess,
  type DataAccessModule,
  readableRanges,
  windowStart,
} from '../../_shared/sensor-data/data-access';
import type { QualityProfiles } from '../../_shared/sensor-data/quality-profile';
import { bucketMsFor, type ChartColumns, createBuckets, resolutionFor } from './downsample';
import type { SeriesPoints } from './series-points';

/** What the comparison needs of a campaign's record: its name and window. */
export interface CampaignWindowRecord {
  id: string;
  name: string;
  startsAt: number;
  endsAt: number;
}

/** Reads a campaign's record by key, consistently: a changed window counts on the next request. */
export interface CampaignRecords {
  keyRead: (campaignId: string) => KeyRead;
  get: (campaignId: string, ahead?: ReadAhead) => Promise<CampaignWindowRecord | undefined>;
}

/** The devices a campaign holds (its campaign-device relations). */
export interface CampaignHolds {
  /** By index, which may lag a write by about a second: each is confirmed by reading `holdRead` consistently. */
  deviceIds: (campaignId: string) => Promise<string[]>;
  holdRead: (campaignId: string, deviceId: string) => KeyRead;
}

export interface CampaignSeriesDeps {
  access: Pick<Access, 'forCaller' | 'readAhead'>;
  campaigns: CampaignRecords;
  holds: CampaignHolds;
  dataAccess: Pick<DataAccessModule, 'readAhead' | 'resolve'>;
  /** Items of any tables by key in one round trip (the devices' records, subscriptions and relations). */
  readTogether: (reads: readonly KeyRead[]) => Promise<ReadAhead>;
  points: SeriesPoints;
  /** Each device's calibrations and exclusions: its line shows corrected values without excluded ones. */
  profiles: Pick<QualityProfiles, 'keyRead' | 'read'>;
  now: () => number;
}

type Query = { from?: number; to?: number; width: number; measurements?: string[] };

/** Where one device's lines may be drawn: the readable parts of the range, or why nothing of it may be seen. */
type Gate = { from: number; parts: TimeRange[]; message?: string } | { before: string };

/**
 * The device's own series gate (readableRanges, purpose `view`) over the comparison's range, except that a range
 * reaching before the tier's window is clipped to the window rather than refused, as the device page's chart does:
 * one device's tier must not cost the whole comparison. Its 403 message says why the line starts later.
 */
const gateOf = (access: DataAccess, range: TimeRange, at: number): Gate => {
  try {
    const { range: readable, parts } = readableRanges(access, 'view', range, at);
    return { from: readable.from, parts };
  } catch (error) {
    if (!(error instanceof Forbidden)) throw error;
    const start = windowStart(access, 'view', at);
    if (range.to < start) return { before: error.message };
    const { range: readable, parts } = readableRanges(access, 'view', { from: start, to: range.to }, at);
    return { from: readable.from, parts, message: error.message };
  }
};

const mostCommon = (values: readonly (string | undefined)[]): string | undefined => {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
};

const iso = (ms: number) => new Date(ms).toISOString();

interface DeviceResult {
  entry: ComparedDevice;
  /** Shown devices: their buckets (own `t`) and per measurement the columns, before they are aligned. */
  columns?: { t: number[]; series: Record<string, ChartColumns> };
  units?: Record<string, string>;
}

/**
 * A campaign's devices charted together (docs/sensor-data.md, "Campaign comparison"): one request answers every
 * device of the campaign over its window, each device through the same data-access gate as its own series, never
 * a wider one. A device the caller may not see is listed as such; it does not fail the comparison.
 */
export const createCampaignSeries = ({
  access,
  campaigns,
  holds,
  dataAccess,
  readTogether,
  points,
  profiles,
  now,
}: CampaignSeriesDeps) => {
  return {
    /** Read with the session record: the campaign's record and the caller's own relations to it. */
    readAhead: (caller: Pick<Caller, 'sub' | 'groups'> | undefined, campaignId: string): KeyRead[] => [
      campaigns.keyRead(campaignId),
      ...access.readAhead(caller, 'campaign', campaignId),
    ],

    compare: async (caller: Caller, campaignId: string, query: Query, ahead?: ReadAhead): Promise<CampaignSeries> => {
      const at = now();
      // The device list does not depend on the decision; it is answered only once the decision allows it.
      const [decision, campaign, listed] = await Promise.all([
        access.forCaller(caller).check('campaign', campaignId, {}, ahead),
        campaigns.get(campaignId, ahead),
        holds.deviceIds(campaignId),
      ]);
      if (!decision.allowed) throw new Forbidden(MESSAGES.accessDenied('campaign'));
      if (!campaign) throw new NotFound(MESSAGES.campaignNotFound(campaignId));

      const named = query.from !== undefined || query.to !== undefined;
      if (named && ((query.from ?? 0) > campaign.endsAt || (query.to ?? at) < campaign.startsAt)) {
        throw new BadRequest(MESSAGES.campaignRangeOutside(iso(campaign.startsAt), iso(campaign.endsAt)));
      }
      const from = Math.max(query.from ?? campaign.startsAt, campaign.startsAt);
      const to = Math.min(query.to ?? campaign.endsAt, campaign.endsAt, at);
      // A campaign that has not started (or a range wholly after now) has nothing to chart yet.
      const empty = to < from;
      const range = { from, to: Math.max(from, to) };
      const resolution = resolutionFor(range);
      const bucketMs = bucketMsFor(range, query.width, resolution);
      const wanted = query.measurements ? new Set(query.measurements) : undefined;

      const ids = [...new Set(listed)].sort();
      const compared = ids.slice(0, MAX_COMPARED_DEVICES);
      // One round trip for every device: its hold (confirming the index), record, subscription, quality profile and
      // the caller's relations to it, read consistently, so a revoked relation or a tier change counts on this very
      // request.
      const read = await readTogether(
        compared.flatMap((id) => [
          holds.holdRead(campaignId, id),
          ...dataAccess.readAhead(caller, id),
          profiles.keyRead(id),
        ]),
      );
      const held = compared.filter((id) => read.item(holds.holdRead(campaignId, id)) !== undefined);

      const one = async (deviceId: string): Promise<DeviceResult> => {
        let device: DataAccess;
        try {
          device = await dataAccess.resolve(caller, deviceId, read);
        } catch (error) {
          if (error instanceof NotFound) return { entry: { deviceId, status: 'not-found', series: {} } };
          if (error instanceof Forbidden || error instanceof Unauthorized) {
            return { entry: { deviceId, status: 'no-access', message: error.message, series: {} } };
          }
          throw error;
        }
        const shown = {
          deviceId,
          name: device.device.name,
          tier: { tier: device.tier.tier, name: device.tier.name },
        };
        const gate = gateOf(device, range, at);
        if ('before' in gate) return { entry: { ...shown, status: 'before-window', message: gate.before, series: {} } };
        // A clip shorter than one point of the chart changes nothing drawn: `from` says it, a note would only alarm.
        const noted = gate.message !== undefined && gate.from - range.from >= bucketMs;
        const entry: ComparedDevice = {
          ...shown,
          status: 'shown',
          ...(noted ? { message: gate.message } : {}),
          from: gate.from,
          series: {},
        };
        if (empty) return { entry };
        const buckets = createBuckets(range, bucketMs);
        await points(buckets, {
          deviceId,
          resolution,
          parts: gate.parts,
          wanted,
          at,
          profile: await profiles.read(deviceId, read),
          quality: 'all',
          values: 'corrected',
        });
        return { entry, columns: buckets.result(), units: device.device.measurementUnits };
      };
      const results = await Promise.all(held.map(one));

      // One time axis for every device: the buckets where any of them has a value.
      const t = [...new Set(results.flatMap((result) => result.columns?.t ?? []))].sort((a, b) => a - b);
      const index = new Map(t.map((start, i) => [start, i]));
      // Those asked for in their order; else the measurements most devices share first, where comparing says most.
      const sharedBy = new Map<string, number>();
      for (const result of results) {
        for (const name of Object.keys(result.columns?.series ?? {})) sharedBy.set(name, (sharedBy.get(name) ?? 0) + 1);
      }
      const names =
        query.measurements ??
        [...sharedBy.keys()].sort((a, b) => sharedBy.get(b)! - sharedBy.get(a)! || a.localeCompare(b));
      const measurements = names.map((name) => {
        const unit = mostCommon(
          results.filter((result) => result.columns?.series[name]).map((result) => unitOf(name, result.units)),
        );
        return { name, label: labelOf(name), ...(unit ? { unit } : {}) };
      });
      const unitOfMeasurement = new Map(measurements.map((m) => [m.name, m.unit]));

      const devices = results.map(({ entry, columns, units }): ComparedDevice => {
        if (!columns) return entry;
        const series: Record<string, DeviceLine> = {};
        for (const [name, column] of Object.entries(columns.series)) {
          const mean: (number | null)[] = new Array(t.length).fill(null);
          columns.t.forEach((start, i) => {
            mean[index.get(start)!] = column.mean[i] ?? null;
          });
          const unit = unitOf(name, units);
          series[name] = {
            mean,
            gapMs: column.gapMs,
            ...(unit && unit !== unitOfMeasurement.get(name) ? { unit } : {}),
          };
        }
        return { ...entry, series };
      });

      return {
        campaignId,
        name: campaign.name,
        from: range.from,
        to: range.to,
        resolution,
        bucketMs,
        t,
        measurements,
        devices,
        moreDevices: Math.max(0, ids.length - compared.length),
      };
    },
  };
};

export type CampaignSeriesReads = ReturnType<typeof createCampaignSeries>;
