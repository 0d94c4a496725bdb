import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, FixtureContext, RouteFixture } from './authz-fixture-types';
import { freshUser } from './people';
import { seedRelation } from './relations';
import { freshDevice, setTier } from './sensor-data';
import { apiAs, type DemoEmail, subOf, tokenOf } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : `${caller}@example.com`) as DemoEmail;
/** Another demo account than the caller's, to make the `foreign` dataset. */
const otherThan = (caller: CallerName): DemoEmail => (caller === 'user' ? 'approved@example.com' : 'user@example.com');

/** A device of `email` whose tier downloads (sd1 Tier 1: 30 days), public or not. */
const downloadableDevice = async (email: DemoEmail, visibility: 'public' | 'private' = 'private') => {
  const id = await deviceOwnedBy(email, { visibility });
  await setTier(id, 'tier1');
  return id;
};

/** The body of a dataset of one device `email` owns. */
const bodyFor = async (email: DemoEmail, visibility: 'public' | 'permissioned' = 'permissioned') => ({
  title: 'Authorization matrix',
  visibility,
  source: {
    kind: 'devices' as const,
    deviceIds: [await downloadableDevice(email, visibility === 'public' ? 'public' : 'private')],
  },
});

/** A dataset made by `email`: a permissioned one only its maker (and staff) may read here. */
const datasetBy = async (email: DemoEmail, visibility: 'public' | 'permissioned' = 'permissioned') =>
  (await apiAs('datasets', await tokenOf(email)).createDataset({ body: await bodyFor(email, visibility) })).id;

/**
 * A campaign with one permissioned dataset of it, made by a fresh person (a person may start 20 datasets an hour: the
 * demo accounts would run out); `manager`: the caller is made one of its managers too.
 */
const campaignWithDataset = async (manager?: DemoEmail) => {
  const maker = await freshUser({ prefix: 'authz-campaign-datasets' });
  const campaign = await apiAs('campaigns', maker.token).create({
    body: { name: 'Matrix datasets', startsAt: Date.now() - 86_400_000, endsAt: Date.now() + 86_400_000 },
  });
  const device = await freshDevice({ ownerToken: maker.token });
  await setTier(device.id, 'tier1');
  await seedRelation('campaign-device', campaign.id, device.id);
  await apiAs('datasets', maker.token).createDataset({
    body: {
      title: 'Matrix campaign dataset',
      visibility: 'permissioned',
      source: { kind: 'campaign', campaignId: campaign.id },
    },
  });
  if (manager) await seedRelation('campaign-manager', campaign.id, await subOf(manager));
  return campaign.id;
};

let shared: Promise<string> | undefined;
/** One public dataset, readable by every caller, guests included. */
const publicDataset = () => {
  shared ??= datasetBy('distributor@example.com', 'public');
  return shared;
};

/** A route on one dataset: any caller reads the public one; the owned and foreign ones are permissioned. */
const onDataset = (): RouteFixture => ({
  prepare: async () => ({ params: { datasetId: await publicDataset() } }),
  owned: async ({ caller }: FixtureContext) => ({ params: { datasetId: await datasetBy(emailOf(caller)) } }),
  foreign: async ({ caller }: FixtureContext) => ({ params: { datasetId: await datasetBy(otherThan(caller)) } }),
});

/** The authorization matrix's fixtures for the datasets area (merged in authz-fixtures.ts). */
export const DATASETS_FIXTURES: Record<string, RouteFixture> = {
  createDataset: {
    prepare: async ({ caller }) => ({ body: await bodyFor(emailOf(caller)) }),
    owned: async ({ caller }) => ({ body: await bodyFor(emailOf(caller)) }),
    // Another person's private device: the caller may not publish its data.
    foreign: async ({ caller }) => ({ body: await bodyFor(otherThan(caller)) }),
  },
  getDataset: onDataset(),
  listPublicDatasets: { prepare: async () => ({ query: { limit: 5 } }) },
  listMyDatasets: { prepare: async () => ({ query: { limit: 5 } }) },
  listDatasetVersions: onDataset(),
  // Any campaign id answers the datasets the caller may read of it (none is a valid answer).
  listCampaignDatasets: {
    prepare: async () => ({ params: { id: 'demo-campaign-1' }, query: { limit: 5 } }),
    // A campaign with a permissioned dataset: its manager's list shows it, another person's list is empty.
    owned: async ({ caller }) => ({ params: { id: await campaignWithDataset(emailOf(caller)) }, query: { limit: 5 } }),
    foreign: async () => ({ params: { id: await campaignWithDataset() }, query: { limit: 5 } }),
  },
};
