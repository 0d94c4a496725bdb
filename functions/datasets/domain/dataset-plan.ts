import { clipToWindows, type TimeRange } from '../../../shared/campaigns/window';
import type { DatasetDevice, DatasetVisibility } from '../../../shared/contracts/datasets';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { type DataAccess, reachDays } from '../../_shared/sensor-data/data-access';

/**
 * What one device gives a dataset built at `asOf` (docs/datasets.md "Tier windows"): the download window its tier
 * gives the dataset's audience — the public window for a public dataset (guests will read it), the permissioned one
 * otherwise — measured back from `asOf`, cut further by the builder's campaign windows. A tier without downloads
 * gives no rows. This is frozen with the dataset: a later change of tier neither takes rows away nor adds any.
 */
export const planDevice = (
  access: Pick<DataAccess, 'device' | 'tier' | 'windows'>,
  visibility: DatasetVisibility,
  range: TimeRange,
  asOf: number,
): DatasetDevice => {
  const days = reachDays({ tier: access.tier, permissioned: visibility === 'permissioned' }, 'download');
  const base = {
    deviceId: access.device.id,
    name: access.device.name,
    productLine: access.device.productLine,
    tier: { id: access.tier.tier, name: access.tier.name },
    windowDays: days,
  };
  if (days === null) return { ...base, parts: [] };
  const from = Math.max(range.from, asOf - days * DAY_MS);
  return { ...base, parts: clipToWindows({ from, to: range.to }, access.windows) };
};

/**
 * The range a dataset asks for: what was sent, never past `asOf` (a frozen dataset holds no future), a campaign's
 * within its window; without a start, a campaign's start or the longest download window among the devices.
 */
export const requestedRange = (
  request: { from?: number; to?: number },
  asOf: number,
  { campaign, longestDays }: { campaign?: { startsAt: number; endsAt: number }; longestDays: number },
): TimeRange => {
  if (campaign) {
    return {
      from: Math.max(request.from ?? campaign.startsAt, campaign.startsAt),
      to: Math.min(request.to ?? campaign.endsAt, campaign.endsAt, asOf),
    };
  }
  return { from: request.from ?? asOf - longestDays * DAY_MS, to: Math.min(request.to ?? asOf, asOf) };
};
