import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type {
  Calibration,
  CalibrationBody,
  Exclusion,
  ExclusionBody,
  Reprocessing,
} from '../../../shared/contracts/sensor-data-quality';
import { MESSAGES } from '../../../shared/messages';
import { endedBy, formulaInputs, isEnd } from '../../../shared/sensor-data/calibration';
import { DAY_MS } from '../../../shared/sensor-data/chart-files';
import { QUALITY_MESSAGES } from '../../../shared/sensor-data/quality-messages';
import type { Access } from '../../_shared/access/access';
import { BadRequest, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import type { QueueSender } from '../../_shared/queue/queue-sender';
import type { ReadAhead } from '../../_shared/read-ahead';
import type { DataAccessModule, DataDevice } from '../../_shared/sensor-data/data-access';
import { type PendingChange, profileOf, type StoredProfile } from '../../_shared/sensor-data/quality-profile';
import type { SensorDataMessage } from '../../_shared/sensor-data/queue-messages';
import type { CampaignRecords } from './campaign-series';
import type { CalibrationRecord, ExclusionRecord, QualityStore, ReprocessJob } from './ports';
import { STALLED_MS } from './reprocess-job';

/** Which campaigns hold a device, and which devices a campaign holds (campaign-device relations, confirmed by id). */
export interface CampaignLinks {
  campaignsHolding: (deviceId: string) => Promise<string[]>;
  devicesOf: (campaignId: string) => Promise<string[]>;
}

export interface DataQualityDeps {
  store: QualityStore;
  dataAccess: Pick<DataAccessModule, 'resolve' | 'readDevice'>;
  access: Pick<Access, 'forCaller'>;
  campaigns: Pick<CampaignRecords, 'get'>;
  links: CampaignLinks;
  /** The sensor-data queue: a change wakes the device's reprocessing with a message in the device's group. */
  work: Pick<QueueSender<SensorDataMessage>, 'send'>;
  log: Log;
  now: () => number;
  newId: (prefix: 'cal' | 'exc') => string;
}

/** Tries of a profile change before giving up: each fails only when another change of the device came first. */
const PROFILE_TRIES = 8;

/** A window some caller may act within; null: no limit (the owner, an administrator, staff). */
type Reach = { startsAt: number; endsAt: number }[] | null;

/** Is `[from, to]` inside one of the windows? Without `to`, a change that would end with the window is. */
const within = (reach: Reach, from: number, to: number | undefined) =>
  reach === null || reach.some((w) => from >= w.startsAt && (to ?? w.endsAt) <= w.endsAt);

/** The part of a change the roll-ups must be computed again for: none when it lies wholly ahead of now. */
const pendingRange = (from: number, to: number | undefined, now: number) => {
  if (from > now + DAY_MS) return undefined;
  return { from, to: Math.min(to ?? now, now + DAY_MS) };
};

export const calibrationOf = (record: CalibrationRecord): Calibration => ({
  id: record.id,
  deviceId: record.deviceId,
  measurement: record.measurement,
  version: record.version,
  formula: record.formula,
  effectiveFrom: record.effectiveFrom,
  ...(record.effectiveTo === undefined ? {} : { effectiveTo: record.effectiveTo }),
  note: record.note,
  ...(record.source ? { source: record.source } : {}),
  createdBy: record.createdBy,
  created: record.created,
  ...(record.campaignId ? { campaignId: record.campaignId } : {}),
});

/** An exclusion as answered: active while the profile applies it, else removed (with who and when, when known). */
export const exclusionOf = (record: ExclusionRecord, active: boolean): Exclusion => ({
  id: record.id,
  deviceId: record.deviceId,
  from: record.from,
  to: record.to,
  ...(record.measurements ? { measurements: record.measurements } : {}),
  reason: record.reason,
  createdBy: record.createdBy,
  created: record.created,
  ...(record.campaignId ? { campaignId: record.campaignId } : {}),
  status: active ? 'active' : 'removed',
  ...(!active && record.removedBy ? { removedBy: record.removedBy } : {}),
  ...(!active && record.removedAt !== undefined ? { removedAt: record.removedAt } : {}),
});

/** A measurement the device has not sent, with where the body names it: a 400 names the field. */
const unknownNames = (device: DataDevice, named: { name: string; path: string }[]) => {
  const known = new Set(device.measurementNames ?? []);
  return named
    .filter(({ name }) => !known.has(name))
    .map(({ name, path }) => ({ path, message: QUALITY_MESSAGES.unknownMeasurement(name) }));
};

const calibrationNames = (body: CalibrationBody) => [
  { name: body.measurement, path: 'body.measurement' },
  ...formulaInputs(body.formula).map((name, i) => ({ name, path: `body.formula.terms.${i}.measurement` })),
];

/**
 * Why an end of `measurement` from `at` would end nothing (no calibration, not itself an end, in force then), or
 * undefined when it ends one (decision 103).
 */
const nothingToEnd = (profile: StoredProfile | undefined, measurement: string, at: number) => {
  const versions = profileOf(profile).calibrations.get(measurement) ?? [];
  if (endedBy(versions, at)) return undefined;
  const later = versions.filter((c) => !isEnd(c.formula) && c.effectiveFrom > at).map((c) => c.effectiveFrom);
  return QUALITY_MESSAGES.nothingToEnd(measurement, at, later.length ? Math.min(...later) : undefined);
};

/** An end that would end nothing: refused for one device, and a campaign-wide end leaves that device out. */
class EndsNothing extends BadRequest {
  constructor(why: string) {
    super(why, [{ path: 'body.effectiveFrom', message: why }]);
  }
}

/**
 * Calibrations, exclusions and their reprocessing (docs/data-quality.md). Every change is a record written first and
 * a profile change that puts it in force after, conditional on the profile's version (no transactions, decision
 * 002): a change that failed half way leaves a record no reader applies and no list shows; the next try makes its
 * own. Each change of a range that holds data adds a pending change to the profile and wakes the device's
 * reprocessing, which computes the range's roll-ups again.
 */
export const createDataQuality = ({
  store,
  dataAccess,
  access,
  campaigns,
  links,
  work,
  log,
  now,
  newId,
}: DataQualityDeps) => {
  const reprocess = (deviceIds: readonly string[]) =>
    work.send(deviceIds.map((deviceId) => ({ kind: 'reprocess', deviceId })));
  /**
   * Changes a device's profile with `change` (given the profile as read), raising its version and, for a range that
   * holds data, adding it as pending. Tried again when another change came first.
   */
  const changeProfile = async (
    deviceId: string,
    change: (profile: StoredProfile) => StoredProfile | undefined,
    pending?: { from: number; to?: number; kind: PendingChange['kind'] },
    /** Writes what the change puts in force (a record), before the profile does. */
    first?: () => Promise<void>,
  ): Promise<boolean> => {
    for (let attempt = 0; attempt < PROFILE_TRIES; attempt++) {
      const stored = await store.profile(deviceId);
      const current: StoredProfile = stored ?? { deviceId, sk: 'profile', version: 0 };
      const changed = change(current);
      if (!changed) return false;
      await first?.();
      const version = current.version + 1;
      const range = pending && pendingRange(pending.from, pending.to, now());
      const next: StoredProfile = {
        ...changed,
        version,
        ...(range ? { pending: [...(current.pending ?? []), { v: version, ...range, kind: pending!.kind }] } : {}),
      };
      if (await store.saveProfile(next, current.version)) {
        if (range) await reprocess([deviceId]);
        return true;
      }
    }
    log('warn', 'Profile change lost every race', { deviceId });
    throw new ServiceUnavailable(QUALITY_MESSAGES.busy);
  };

  /**
   * May the caller calibrate or exclude this device's data over `[from, to]`? Its owner, an administrator or staff
   * always; a manager of a campaign holding it within that campaign's window. Answers the device and the reach.
   */
  const curate = async (caller: Caller, deviceId: string, range?: { from: number; to?: number }) => {
    const device = await dataAccess.readDevice(deviceId);
    if (!device) throw new NotFound(MESSAGES.deviceNotFound(deviceId));
    if (isStaff(caller.groups)) return { device, reach: null as Reach };
    const callerAccess = access.forCaller(caller);
    if ((await callerAccess.check('device', deviceId, { need: 'manage' })).allowed)
      return { device, reach: null as Reach };
    const managed: { startsAt: number; endsAt: number }[] = [];
    for (const campaignId of await links.campaignsHolding(deviceId)) {
      if (!(await callerAccess.check('campaign', campaignId, { need: 'manage' })).allowed) continue;
      const campaign = await campaigns.get(campaignId);
      if (campaign) managed.push({ startsAt: campaign.startsAt, endsAt: campaign.endsAt });
    }
    if (managed.length === 0) throw new Forbidden(QUALITY_MESSAGES.mayNotCurate);
    if (range && !within(managed, range.from, range.to)) {
      const w = managed[0]!;
      throw new Forbidden(QUALITY_MESSAGES.outsideCampaignWindow(w.startsAt, w.endsAt));
    }
    return { device, reach: managed as Reach };
  };

  const addCalibration = async (
    caller: Caller,
    device: DataDevice,
    body: CalibrationBody,
    campaignId?: string,
  ): Promise<Calibration> => {
    const record: CalibrationRecord = {
      id: newId('cal'),
      deviceId: device.id,
      measurement: body.measurement,
      version: 0,
      formula: body.formula,
      effectiveFrom: body.effectiveFrom,
      ...(body.effectiveTo === undefined ? {} : { effectiveTo: body.effectiveTo }),
      note: body.note,
      ...(body.source ? { source: body.source } : {}),
      createdBy: caller.sub,
      created: now(),
      ...(campaignId ? { campaignId } : {}),
    };
    await changeProfile(
      device.id,
      (profile) => {
        // Checked on the profile the change is made to: two ends at once cannot both end the same version.
        const why = isEnd(record.formula) ? nothingToEnd(profile, record.measurement, record.effectiveFrom) : undefined;
        if (why) throw new EndsNothing(why);
        const versions = profile.cal?.[record.measurement] ?? [];
        record.version = Math.max(0, ...versions.map((c) => c.v)) + 1;
        return {
          ...profile,
          cal: {
            ...(profile.cal ?? {}),
            [record.measurement]: [
              ...versions,
              {
                v: record.version,
                id: record.id,
                f: record.formula,
                from: record.effectiveFrom,
                ...(record.effectiveTo === undefined ? {} : { to: record.effectiveTo }),
              },
            ],
          },
        };
      },
      { from: record.effectiveFrom, to: record.effectiveTo, kind: 'calibration' },
      // The version is the profile's next one: the record is written again when a race moves it.
      () => store.putCalibration(record),
    );
    return calibrationOf(record);
  };

  const addExclusion = async (
    caller: Caller,
    deviceId: string,
    body: ExclusionBody,
    id: string,
    campaignId?: string,
  ): Promise<Exclusion> => {
    const record: ExclusionRecord = {
      id,
      deviceId,
      from: body.from,
      to: body.to,
      ...(body.measurements ? { measurements: body.measurements } : {}),
      reason: body.reason,
      createdBy: caller.sub,
      created: now(),
      ...(campaignId ? { campaignId } : {}),
    };
    await changeProfile(
      deviceId,
      (profile) => ({
        ...profile,
        exc: [
          ...(profile.exc ?? []),
          { id, from: record.from, to: record.to, ...(record.measurements ? { m: record.measurements } : {}) },
        ],
      }),
      { from: record.from, to: record.to, kind: 'exclusion' },
      () => store.putExclusion(record),
    );
    return exclusionOf(record, true);
  };

  /** Marks the record removed (once), then takes it out of the profile: a retry after a failure finishes the job. */
  const removeExclusion = async (caller: Caller, deviceId: string, id: string): Promise<boolean> => {
    const record = await store.getExclusion(deviceId, id);
    if (!record) return false;
    await store.markRemoved(deviceId, id, caller.sub, now());
    await changeProfile(
      deviceId,
      (profile) =>
        profile.exc?.some((e) => e.id === id) ? { ...profile, exc: profile.exc.filter((e) => e.id !== id) } : undefined,
      { from: record.from, to: record.to, kind: 'exclusion' },
    );
    return true;
  };

  const listDeviceCalibrations = async (deviceId: string): Promise<Calibration[]> => {
    const [records, profile] = await Promise.all([store.calibrations(deviceId), store.profile(deviceId)]);
    const inForce = new Set(Object.values(profile?.cal ?? {}).flatMap((versions) => versions.map((c) => c.id)));
    return records
      .filter((record) => inForce.has(record.id))
      .map(calibrationOf)
      .sort((a, b) => b.created - a.created || a.measurement.localeCompare(b.measurement) || b.version - a.version);
  };

  const listDeviceExclusions = async (deviceId: string): Promise<Exclusion[]> => {
    const [records, profile] = await Promise.all([store.exclusions(deviceId), store.profile(deviceId)]);
    const active = new Set((profile?.exc ?? []).map((e) => e.id));
    return records
      .filter((record) => active.has(record.id) || record.removedAt !== undefined)
      .map((record) => exclusionOf(record, active.has(record.id)))
      .sort((a, b) => b.created - a.created);
  };

  /** A campaign the caller manages (or staff), with its window. */
  const managedCampaign = async (caller: Caller, campaignId: string) => {
    if (!isStaff(caller.groups)) {
      const decision = await access.forCaller(caller).check('campaign', campaignId, { need: 'manage' });
      if (!decision.allowed) throw new Forbidden(QUALITY_MESSAGES.campaignManagersOnly);
    }
    const campaign = await campaigns.get(campaignId);
    if (!campaign) throw new NotFound(MESSAGES.campaignNotFound(campaignId));
    return campaign;
  };

  const viewedCampaign = async (caller: Caller, campaignId: string) => {
    if (!(await access.forCaller(caller).check('campaign', campaignId)).allowed) {
      throw new Forbidden(MESSAGES.accessDenied('campaign'));
    }
  };

  const insideWindow = (campaign: { startsAt: number; endsAt: number }, from: number, to: number | undefined) => {
    if (from < campaign.startsAt || (to ?? Number.POSITIVE_INFINITY) > campaign.endsAt) {
      throw new BadRequest(QUALITY_MESSAGES.outsideCampaignWindow(campaign.startsAt, campaign.endsAt), [
        { path: to !== undefined && to > campaign.endsAt ? 'body.to' : 'body.from', message: 'outside the window' },
      ]);
    }
  };

  return {
    listCalibrations: async (caller: Caller | undefined, deviceId: string, ahead?: ReadAhead) => {
      await dataAccess.resolve(caller, deviceId, ahead);
      return { items: await listDeviceCalibrations(deviceId) };
    },

    addCalibration: async (caller: Caller, deviceId: string, body: CalibrationBody): Promise<Calibration> => {
      const { device, reach } = await curate(caller, deviceId, { from: body.effectiveFrom, to: body.effectiveTo });
      const issues = unknownNames(device, calibrationNames(body));
      if (issues.length) throw new BadRequest(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
      // A campaign manager's version ends with the campaign's window: their say does too.
      const ends = reach?.find((w) => within([w], body.effectiveFrom, body.effectiveTo))?.endsAt;
      return addCalibration(caller, device, {
        ...body,
        ...(body.effectiveTo === undefined && ends !== undefined ? { effectiveTo: ends } : {}),
      });
    },

    listExclusions: async (caller: Caller | undefined, deviceId: string, ahead?: ReadAhead) => {
      await dataAccess.resolve(caller, deviceId, ahead);
      return { items: await listDeviceExclusions(deviceId) };
    },

    addExclusion: async (caller: Caller, deviceId: string, body: ExclusionBody): Promise<Exclusion> => {
      const { device } = await curate(caller, deviceId, { from: body.from, to: body.to });
      const issues = unknownNames(
        device,
        (body.measurements ?? []).map((name, i) => ({ name, path: `body.measurements.${i}` })),
      );
      if (issues.length) throw new BadRequest(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
      return addExclusion(caller, deviceId, body, newId('exc'));
    },

    removeExclusion: async (caller: Caller, deviceId: string, exclusionId: string): Promise<void> => {
      const record = await store.getExclusion(deviceId, exclusionId);
      if (!record) {
        await curate(caller, deviceId);
        throw new NotFound(QUALITY_MESSAGES.exclusionNotFound(exclusionId));
      }
      await curate(caller, deviceId, { from: record.from, to: record.to });
      await removeExclusion(caller, deviceId, exclusionId);
    },

    reprocessing: async (caller: Caller | undefined, deviceId: string, ahead?: ReadAhead): Promise<Reprocessing> => {
      await dataAccess.resolve(caller, deviceId, ahead);
      const [job, profile] = await Promise.all([store.job(deviceId), store.profile(deviceId)]);
      const pending = profile?.pending?.length ?? 0;
      // A run that lost its message, or changes no run has taken: wake it (a wake-up more is harmless).
      const stalled =
        job?.status === 'running'
          ? now() - job.updated > STALLED_MS
          : pending > 0 && now() - (job?.updated ?? 0) > 5_000;
      if (stalled) {
        await reprocess([deviceId]).catch((error: unknown) =>
          log('warn', 'Reprocessing not woken', { deviceId, error }),
        );
      }
      return reprocessingOf(deviceId, job, pending);
    },

    listCampaignCalibrations: async (caller: Caller, campaignId: string) => {
      await viewedCampaign(caller, campaignId);
      const records = await store.campaignCalibrations(campaignId);
      const profiles = await store.profiles(records.map((r) => r.deviceId));
      const inForce = (r: CalibrationRecord) =>
        (profiles.get(r.deviceId)?.cal?.[r.measurement] ?? []).some((c) => c.id === r.id);
      return { items: records.filter(inForce).map(calibrationOf) };
    },

    addCampaignCalibration: async (caller: Caller, campaignId: string, body: CalibrationBody) => {
      const campaign = await managedCampaign(caller, campaignId);
      const effectiveTo = body.effectiveTo ?? campaign.endsAt;
      insideWindow(campaign, body.effectiveFrom, effectiveTo);
      const items: Calibration[] = [];
      const skipped: { deviceId: string; reason: string }[] = [];
      const needed = calibrationNames(body).map((n) => n.name);
      let nothingEnded: EndsNothing | undefined;
      for (const deviceId of await links.devicesOf(campaignId)) {
        const device = await dataAccess.readDevice(deviceId);
        if (!device) continue;
        const missing = needed.filter((name) => !(device.measurementNames ?? []).includes(name));
        if (missing.length) {
          skipped.push({ deviceId, reason: QUALITY_MESSAGES.skippedMeasurement([...new Set(missing)]) });
          continue;
        }
        try {
          items.push(await addCalibration(caller, device, { ...body, effectiveTo }, campaignId));
        } catch (error) {
          // An end leaves out the devices with nothing to end then, as addCalibration finds on the profile it changes
          // (before it writes anything), so one read of each profile serves the check and the change.
          if (!(error instanceof EndsNothing)) throw error;
          skipped.push({ deviceId, reason: QUALITY_MESSAGES.skippedNothingToEnd(body.measurement) });
          nothingEnded ??= error;
        }
      }
      if (items.length === 0 && nothingEnded !== undefined) throw nothingEnded;
      if (items.length === 0) {
        throw new BadRequest(QUALITY_MESSAGES.noDeviceHasMeasurement([...new Set(needed)]), [
          { path: 'body.measurement', message: QUALITY_MESSAGES.noDeviceHasMeasurement([...new Set(needed)]) },
        ]);
      }
      return { items, skipped };
    },

    listCampaignExclusions: async (caller: Caller, campaignId: string) => {
      await viewedCampaign(caller, campaignId);
      const records = await store.campaignExclusions(campaignId);
      const profiles = await store.profiles(records.map((r) => r.deviceId));
      const active = (r: ExclusionRecord) => (profiles.get(r.deviceId)?.exc ?? []).some((e) => e.id === r.id);
      return {
        items: records.filter((r) => active(r) || r.removedAt !== undefined).map((r) => exclusionOf(r, active(r))),
      };
    },

    addCampaignExclusion: async (caller: Caller, campaignId: string, body: ExclusionBody) => {
      const campaign = await managedCampaign(caller, campaignId);
      insideWindow(campaign, body.from, body.to);
      const devices = await links.devicesOf(campaignId);
      if (devices.length === 0) throw new BadRequest(QUALITY_MESSAGES.noDevices);
      // One id for every device: the campaign removes them together.
      const id = newId('exc');
      const items: Exclusion[] = [];
      for (const deviceId of devices) items.push(await addExclusion(caller, deviceId, body, id, campaignId));
      return { id, items };
    },

    removeCampaignExclusion: async (caller: Caller, campaignId: string, exclusionId: string): Promise<void> => {
      await managedCampaign(caller, campaignId);
      const records = (await store.campaignExclusions(campaignId)).filter((r) => r.id === exclusionId);
      if (records.length === 0) throw new NotFound(QUALITY_MESSAGES.exclusionNotFound(exclusionId));
      for (const record of records) await removeExclusion(caller, record.deviceId, exclusionId);
    },
  };
};

export type DataQuality = ReturnType<typeof createDataQuality>;

/** A run as answered: idle once done with nothing pending, else how far its ranges have come. */
export const reprocessingOf = (deviceId: string, job: ReprocessJob | undefined, pending: number): Reprocessing => {
  const running = pending > 0 || job?.status === 'running';
  if (!running)
    return { deviceId, status: 'idle', progress: 100, pending: 0, ...(job ? { updated: job.updated } : {}) };
  const onJob = job?.status === 'running' ? job : undefined;
  return {
    deviceId,
    status: 'running',
    progress: onJob && onJob.total > 0 ? Math.min(99, Math.floor((onJob.done / onJob.total) * 100)) : 0,
    pending,
    ...(onJob ? { doneMs: Math.min(onJob.done, onJob.total), totalMs: onJob.total } : {}),
    ...(onJob?.ranges.length ? { from: onJob.ranges[0]!.from, to: onJob.ranges[onJob.ranges.length - 1]!.to } : {}),
    ...(onJob ? { updated: onJob.updated } : {}),
  };
};
