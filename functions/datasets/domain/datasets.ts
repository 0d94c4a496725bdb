import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { type CreateDatasetBody, DATASET_BUILDS_PER_HOUR, type Dataset } from '../../../shared/contracts/datasets';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { MAX_DATASET_DEVICES } from '../../../shared/datasets/dataset-rules';
import { MESSAGES } from '../../../shared/messages';
import { type DatasetRecord, mayReadDataset } from '../../_shared/datasets/dataset-access';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { takeHourlyUse } from '../../_shared/hourly-limit';
import type { Log } from '../../_shared/logger';
import { cursorPage, type PageSource } from '../../_shared/paging';
import { type DataAccessModule, reachDays } from '../../_shared/sensor-data/data-access';
import type { BuildMessage } from './build-message';
import { planDevice, requestedRange } from './dataset-plan';
import { type DatasetPlace, toDataset } from './dataset-view';
import type { DatasetStore } from './ports';

/** What a dataset needs of a campaign: its record, its devices and whether the caller manages it. */
export interface CampaignReader {
  get: (id: string) => Promise<{ id: string; name: string; startsAt: number; endsAt: number } | undefined>;
  /** The ids of the devices the campaign holds (its campaign-device relations). */
  devices: (id: string) => Promise<string[]>;
  mayManage: (caller: Caller, id: string) => Promise<boolean>;
}

export interface DatasetsDeps {
  log: Log;
  store: Omit<DatasetStore, 'start' | 'progress' | 'stepDone' | 'freeze'>;
  dataAccess: Pick<DataAccessModule, 'resolve'>;
  campaigns: CampaignReader;
  /** A person's name as the platform knows it, for the default creator. */
  nameOf: (sub: string) => Promise<string | undefined>;
  work: { send: (messages: readonly BuildMessage[]) => Promise<void> };
  place: DatasetPlace;
  now: () => number;
  newId: () => string;
}

type PageRequest = { limit: number; cursor?: string };

/** Datasets: build one of devices or a campaign, read one, list the public ones, one's own, a campaign's, versions. */
export const createDatasets = ({
  store,
  dataAccess,
  campaigns,
  nameOf,
  work,
  place,
  now,
  newId,
  log,
}: DatasetsDeps) => {
  const mayRead = (caller: Caller | undefined, record: DatasetRecord) =>
    mayReadDataset(caller, record, dataAccess.resolve);

  const readable = async (caller: Caller | undefined, id: string): Promise<DatasetRecord> => {
    const record = await store.get(id);
    // A dataset the caller may not read answers as if it did not exist: its id reveals nothing.
    if (!record || !(await mayRead(caller, record))) throw new NotFound(DATASET_MESSAGES.notFound(id));
    return record;
  };

  const view = (record: DatasetRecord): Dataset => toDataset(record, place);

  /** A page of records, keeping the ones the caller may read (so a page may hold fewer than asked). */
  const listed = async (caller: Caller | undefined, source: PageSource<DatasetRecord>, request: PageRequest) => {
    const page = await cursorPage(source, request);
    const shown: Dataset[] = [];
    for (const record of page.items) if (await mayRead(caller, record)) shown.push(view(record));
    return { ...page, items: shown };
  };

  /** The previous version a new one continues, checked: readable, frozen, and the caller may add to it. */
  const previousOf = async (caller: Caller, id: string): Promise<DatasetRecord> => {
    const previous = await readable(caller, id);
    if (previous.status !== 'frozen') throw new Conflict(DATASET_MESSAGES.versionOnlyFrozen(id, previous.status));
    const allowed =
      caller.sub === previous.creatorId ||
      isStaff(caller.groups) ||
      (previous.source.kind === 'campaign' && (await campaigns.mayManage(caller, previous.source.campaignId)));
    if (!allowed) throw new Forbidden(DATASET_MESSAGES.versionNotAllowed);
    return previous;
  };

  /** The devices (and a campaign's window) a request names, checked against what the caller may do. */
  const sourceOf = async (caller: Caller, source: CreateDatasetBody['source']) => {
    if (source.kind === 'devices') return { deviceIds: source.deviceIds, record: { kind: 'devices' as const } };
    // Not revealed to a non-manager whether the campaign exists (as the campaigns area answers).
    if (!(await campaigns.mayManage(caller, source.campaignId)))
      throw new Forbidden(DATASET_MESSAGES.campaignManagerOnly);
    const campaign = await campaigns.get(source.campaignId);
    if (!campaign) throw new NotFound(MESSAGES.campaignNotFound(source.campaignId));
    const deviceIds = [...new Set(await campaigns.devices(campaign.id))].sort();
    if (deviceIds.length === 0) throw new BadRequest(DATASET_MESSAGES.campaignNoDevices);
    if (deviceIds.length > MAX_DATASET_DEVICES) {
      throw new BadRequest(DATASET_MESSAGES.campaignTooManyDevices(deviceIds.length, MAX_DATASET_DEVICES));
    }
    return {
      deviceIds,
      campaign,
      record: { kind: 'campaign' as const, campaignId: campaign.id, campaignName: campaign.name },
    };
  };

  const countBuild = (caller: Caller, at: number) =>
    takeHourlyUse(
      (subject, hourStart, limit) => store.countBuild(subject, hourStart, limit),
      { subject: `person:${caller.sub}`, limit: DATASET_BUILDS_PER_HOUR, at },
      DATASET_MESSAGES.tooMany,
    );

  /** Writes the record under a fresh id; a taken id (a 60-bit random one) is tried once more. */
  const createRecord = async (record: Omit<DatasetRecord, 'id' | 'conceptId'> & { conceptId?: string }) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const id = newId();
      const full: DatasetRecord = { ...record, id, conceptId: record.conceptId ?? id };
      if (await store.create(full)) return full;
    }
    throw new Error('Two dataset ids in a row were taken');
  };

  return {
    create: async (caller: Caller, request: CreateDatasetBody): Promise<Dataset> => {
      const asOf = now();
      const previous = request.previousVersionId ? await previousOf(caller, request.previousVersionId) : undefined;
      const source = await sourceOf(caller, request.source);
      const accesses = await Promise.all(source.deviceIds.map((id) => dataAccess.resolve(caller, id)));
      for (const access of accesses) {
        const { id, name, dataVisibility } = access.device;
        if (!access.permissioned) throw new Forbidden(DATASET_MESSAGES.deviceNotPermitted(name, id));
        if (request.visibility === 'public' && dataVisibility !== 'public') {
          throw new BadRequest(DATASET_MESSAGES.deviceNotPublic(name, id));
        }
      }
      const longestDays = Math.max(
        0,
        ...accesses.map(
          (access) =>
            reachDays({ tier: access.tier, permissioned: request.visibility === 'permissioned' }, 'download') ?? 0,
        ),
      );
      const range = requestedRange(request, asOf, { campaign: source.campaign, longestDays });
      if (range.from > range.to) {
        throw new BadRequest(
          source.campaign && source.campaign.startsAt > asOf
            ? DATASET_MESSAGES.campaignNotStarted
            : 'The range must start before it ends (from ≤ to), and not after now',
        );
      }
      const devices = accesses.map((access) => planDevice(access, request.visibility, range, asOf));
      if (devices.every((device) => device.parts.length === 0)) {
        throw new Forbidden(DATASET_MESSAGES.nothingToBuild(request.visibility));
      }
      // Counted only once the request is allowed: a refused one costs nothing and takes no slot.
      await countBuild(caller, asOf);
      const version = previous ? await store.nextVersion(previous.conceptId) : 1;
      const record = await createRecord({
        ...(previous ? { conceptId: previous.conceptId, previousVersionId: previous.id } : {}),
        version,
        title: request.title,
        description: request.description,
        creators: request.creators ?? [{ name: (await nameOf(caller.sub)) || caller.email || caller.username }],
        license: request.license,
        visibility: request.visibility,
        source: source.record,
        ...(source.record.kind === 'campaign' ? { campaignId: source.record.campaignId } : {}),
        from: range.from,
        to: range.to,
        ...(request.measurements ? { measurements: request.measurements } : {}),
        ...(request.parquet ? { parquet: true } : {}),
        asOf,
        devices,
        status: 'queued',
        progress: 0,
        attempts: 0,
        step: 0,
        files: [],
        rows: 0,
        bytes: 0,
        creatorId: caller.sub,
        created: asOf,
        updated: asOf,
      });
      try {
        await work.send([{ kind: 'build', datasetId: record.id }]);
      } catch (error) {
        await store.setback(record.id, 'failed', DATASET_MESSAGES.notQueued, now());
        log('error', 'Dataset not queued', { datasetId: record.id, error });
        throw new ServiceUnavailable(DATASET_MESSAGES.notQueued);
      }
      return view(record);
    },

    get: async (caller: Caller | undefined, id: string): Promise<Dataset> => view(await readable(caller, id)),

    listPublic: (query: PageRequest) => listed(undefined, store.listPublic, query),

    listMine: (caller: Caller, query: PageRequest) =>
      listed(caller, (startKey, size) => store.listByCreator(caller.sub, startKey, size), query),

    listOfCampaign: (caller: Caller | undefined, campaignId: string, query: PageRequest) =>
      listed(caller, (startKey, size) => store.listByCampaign(campaignId, startKey, size), query),

    listVersions: async (caller: Caller | undefined, id: string): Promise<{ items: Dataset[] }> => {
      const record = await readable(caller, id);
      const items: Dataset[] = [];
      for (const version of await store.listVersions(record.conceptId)) {
        if (version.id === record.id || (await mayRead(caller, version))) items.push(view(version));
      }
      return { items };
    },
  };
};

export type Datasets = ReturnType<typeof createDatasets>;
