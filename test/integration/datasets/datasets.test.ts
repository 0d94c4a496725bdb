import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import type { Dataset } from '../../../shared/contracts/datasets';
import { DATASET_MESSAGES } from '../../../shared/datasets/dataset-messages';
import { DAY_MS } from '../../../shared/sensor-data/tiers';
import { fetchDatasetFile, manifestFile, sha256, waitForDataset } from '../../support/datasets';
import { type FreshUser, freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { freshDevice, setTier, type TestDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack } from '../../support/stack';

/**
 * Datasets through the local gateway and the datasets queue's worker: a build freezes each device's rows within its
 * tier's download window at the time of the request, in a CSV and a JSON per device and a manifest whose checksums
 * match the bytes POST /api/aws hands out; who may read a dataset; public ones for guests; versions; a campaign's.
 */

const HOUR = 3_600_000;
const store = () => createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });

/** Readings every 3 hours, half past, back `days` days from `now`. */
const seed = async (device: TestDevice, now: number, days: number, values: (i: number) => Record<string, number>) => {
  const readings = Array.from({ length: (days * 24) / 3 }, (_, i) => ({
    timestamp: now - i * 3 * HOUR - HOUR / 2,
    values: values(i),
  })).reverse();
  await store().write(device.id, readings, now);
  return readings;
};

const inParts = (dataset: Dataset, deviceId: string, readings: { timestamp: number }[]) => {
  const { parts } = dataset.devices.find((device) => device.deviceId === deviceId)!;
  return readings.filter((r) => parts.some((part) => r.timestamp >= part.from && r.timestamp <= part.to));
};

describe('datasets', () => {
  let now: number;
  let owner: FreshUser;
  /** sd1 Tier 1 (downloads 30 days), 35 days of readings. */
  let month: TestDevice;
  /** sd1 Tier 0: no downloads, so no rows. */
  let locked: TestDevice;
  /** al30 Tier 2 (30 days), 4 days of two measurements. */
  let lake: TestDevice;
  let monthReadings: { timestamp: number; values: Record<string, number> }[];
  let lakeReadings: { timestamp: number; values: Record<string, number> }[];
  let built: Dataset;

  beforeAll(async () => {
    now = Date.now();
    owner = await freshUser({ prefix: 'datasets-owner' });
    month = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    locked = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    lake = await freshDevice({ productLine: 'al30', ownerToken: owner.token });
    await setTier(month.id, 'tier1');
    await setTier(lake.id, 'tier2');
    monthReadings = await seed(month, now, 35, (i) => ({ pm2_5: i / 4 }));
    await seed(locked, now, 2, (i) => ({ pm2_5: i }));
    lakeReadings = await seed(lake, now, 4, (i) => ({ pm2_5: i / 2, temperature: 4 + (i % 10) / 10 }));
  });

  it("freezes each device's rows within its tier's download window, with progress, and checksums that match the files", async () => {
    const created = await apiAs('datasets', owner.token).createDataset({
      body: {
        title: 'Rooftop and lake, spring',
        description: 'Three stations of one owner',
        visibility: 'permissioned',
        source: { kind: 'devices', deviceIds: [month.id, locked.id, lake.id] },
        from: now - 60 * DAY_MS,
      },
    });
    expect(created).toMatchObject({ status: 'queued', progress: 0, version: 1, files: [] });
    expect(created.devices.map((d) => [d.tier.name, d.windowDays])).toEqual([
      ['Tier 1', 30],
      ['Tier 0', null],
      ['Tier 2', 30],
    ]);
    const { dataset, seen } = await waitForDataset(created.id, owner.token);
    built = dataset;
    expect(dataset).toMatchObject({ status: 'frozen', progress: 100 });
    expect(seen.every((p, i) => i === 0 || p >= seen[i - 1]!)).toBe(true);
    expect(dataset.citation).toMatch(
      new RegExp(
        `^Fresh .+ \\(\\d{4}\\)\\. Rooftop and lake, spring \\(Version 1\\) \\[Data set\\]\\. Device Data Platform\\. http.+/dashboard/datasets/${dataset.id}$`,
      ),
    );

    const monthRows = inParts(dataset, month.id, monthReadings);
    // 30 of the 35 days: the rest lies before Tier 1's download window.
    expect(monthRows.length).toBeGreaterThanOrEqual(239);
    expect(monthRows.length).toBeLessThanOrEqual(241);
    expect(dataset.devices.map((d) => d.rows)).toEqual([monthRows.length, 0, lakeReadings.length]);
    expect(dataset.rows).toBe(monthRows.length + lakeReadings.length);

    const manifestBytes = await fetchDatasetFile(manifestFile(dataset), owner.token);
    expect(sha256(manifestBytes)).toBe(manifestFile(dataset).sha256);
    const manifest = JSON.parse(manifestBytes.toString('utf8'));
    expect(manifest).toMatchObject({ id: dataset.id, version: 1, rows: dataset.rows, citation: dataset.citation });
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual(
      [month.id, locked.id, lake.id].flatMap((id) => [`${id}.csv`, `${id}.json`]),
    );
    for (const entry of manifest.files as { name: string; sha256: string; bytes: number; rows: number }[]) {
      const file = dataset.files.find((f) => f.name === entry.name)!;
      const bytes = await fetchDatasetFile(file, owner.token);
      expect([sha256(bytes), bytes.length]).toEqual([entry.sha256, entry.bytes]);
      expect(file.sha256).toBe(entry.sha256);
    }
    const csv = (await fetchDatasetFile(dataset.files.find((f) => f.name === `${month.id}.csv`)!, owner.token))
      .toString('utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('timestamp,iso_time,pm2_5 (µg/m³)');
    expect(csv.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(monthRows.map((r) => r.timestamp));
    const lakeJson = JSON.parse(
      (await fetchDatasetFile(dataset.files.find((f) => f.name === `${lake.id}.json`)!, owner.token)).toString('utf8'),
    );
    expect(lakeJson.readings).toHaveLength(lakeReadings.length);
  });

  it('never changes once frozen: later readings and a tier change leave its record and files as they were', async () => {
    await store().write(month.id, [{ timestamp: now - 2 * DAY_MS - HOUR / 4, values: { pm2_5: 999 } }], Date.now());
    await setTier(month.id, 'tier2');
    const again = await apiAs('datasets', owner.token).getDataset({ params: { datasetId: built.id } });
    expect(again).toEqual(built);
    const file = built.files.find((f) => f.name === `${month.id}.csv`)!;
    expect(sha256(await fetchDatasetFile(file, owner.token))).toBe(file.sha256);
    await setTier(month.id, 'tier1');
  });

  it('lets a permissioned dataset be read by members of every device it holds rows of; others get 404', async () => {
    const member = await freshUser({ prefix: 'datasets-member' });
    const partial = await freshUser({ prefix: 'datasets-partial' });
    await seedRelation('device-user', month.id, member.id);
    await seedRelation('device-user', lake.id, member.id);
    await seedRelation('device-user', month.id, partial.id);
    const asMember = await apiAs('datasets', member.token).getDataset({ params: { datasetId: built.id } });
    expect(asMember.id).toBe(built.id);
    expect((await fetchDatasetFile(manifestFile(built), member.token)).length).toBe(manifestFile(built).bytes);

    for (const token of [partial.token, undefined]) {
      const refused = await apiRejection(apiAs('datasets', token).getDataset({ params: { datasetId: built.id } }));
      expect([refused.status, refused.message]).toEqual([404, DATASET_MESSAGES.notFound(built.id)]);
      const file = await apiRejection(
        apiAs('api', token).aws({
          body: { action: 'getSignedS3Url', params: { bucket: 'datasets', key: manifestFile(built).key } },
        }),
      );
      expect(file.status).toBe(404);
    }
    // Only the creator may make a new version; the member may read it, not continue it.
    const version = await apiRejection(
      apiAs('datasets', member.token).createDataset({
        body: {
          title: 'Mine now',
          visibility: 'permissioned',
          source: { kind: 'devices', deviceIds: [month.id] },
          previousVersionId: built.id,
        },
      }),
    );
    expect([version.status, version.message]).toEqual([403, DATASET_MESSAGES.versionNotAllowed]);
  });

  it('makes a new version with a new id that links to the old, and lists both versions', async () => {
    const datasets = apiAs('datasets', owner.token);
    const second = await datasets.createDataset({
      body: {
        title: 'Rooftop and lake, spring (lake only)',
        visibility: 'permissioned',
        source: { kind: 'devices', deviceIds: [lake.id] },
        previousVersionId: built.id,
      },
    });
    expect(second).toMatchObject({ version: 2, conceptId: built.id, previousVersionId: built.id });
    expect(second.id).not.toBe(built.id);
    const { dataset } = await waitForDataset(second.id, owner.token);
    expect(dataset.status).toBe('frozen');
    const versions = await datasets.listDatasetVersions({ params: { datasetId: built.id } });
    expect(versions.items.map((v) => [v.id, v.version])).toEqual([
      [built.id, 1],
      [second.id, 2],
    ]);
    const mine = await datasets.listMyDatasets({ query: { limit: 10 } });
    expect(mine.items.map((d) => d.id)).toEqual([second.id, built.id]);
  });

  it('opens a public dataset to guests, in the public list, and holds only public devices', async () => {
    const maker = await freshUser({ prefix: 'datasets-public' });
    const buoy = await freshDevice({ productLine: 'al30', ownerToken: maker.token, visibility: 'public' });
    const hidden = await freshDevice({ productLine: 'al30', ownerToken: maker.token });
    await setTier(buoy.id, 'tier1');
    await setTier(hidden.id, 'tier1');
    const readings = await seed(buoy, now, 10, (i) => ({ pm10: i }));
    const refused = await apiRejection(
      apiAs('datasets', maker.token).createDataset({
        body: { title: 'Both', visibility: 'public', source: { kind: 'devices', deviceIds: [buoy.id, hidden.id] } },
      }),
    );
    expect([refused.status, refused.message]).toEqual([
      400,
      DATASET_MESSAGES.deviceNotPublic(
        (await apiAs('devices', maker.token).get({ params: { id: hidden.id } })).name,
        hidden.id,
      ),
    ]);
    const created = await apiAs('datasets', maker.token).createDataset({
      body: { title: 'Lake buoy, one week', visibility: 'public', source: { kind: 'devices', deviceIds: [buoy.id] } },
    });
    const { dataset } = await waitForDataset(created.id);
    // AL Tier 1's public download window: 7 of the 10 days.
    expect(dataset.devices[0]!.windowDays).toBe(7);
    expect(dataset.rows).toBe(inParts(dataset, buoy.id, readings).length);
    expect(dataset.rows).toBeGreaterThanOrEqual(55);
    const guestFile = await fetchDatasetFile(manifestFile(dataset));
    expect(sha256(guestFile)).toBe(manifestFile(dataset).sha256);
    const listed = await apiAs('datasets').listPublicDatasets({ query: { limit: 100 } });
    expect(listed.items.map((d) => d.id)).toContain(dataset.id);
    expect(listed.items.every((d) => d.visibility === 'public' && d.status === 'frozen')).toBe(true);
  });

  it("makes a campaign's dataset of its devices within its window, for its managers, listed on the campaign", async () => {
    const manager = await freshUser({ prefix: 'datasets-manager' });
    const campaign = await apiAs('campaigns', manager.token).create({
      body: { name: 'Shore survey', startsAt: now - 10 * DAY_MS, endsAt: now + 10 * DAY_MS },
    });
    const station = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    await setTier(station.id, 'tier2');
    const readings = await seed(station, now, 20, (i) => ({ co2: 400 + i }));
    await seedRelation('campaign-device', campaign.id, station.id);

    const stranger = await apiRejection(
      apiAs('datasets', owner.token).createDataset({
        body: { title: 'Not mine', visibility: 'permissioned', source: { kind: 'campaign', campaignId: campaign.id } },
      }),
    );
    expect([stranger.status, stranger.message]).toEqual([403, DATASET_MESSAGES.campaignManagerOnly]);

    const created = await apiAs('datasets', manager.token).createDataset({
      body: {
        title: 'Shore survey data',
        visibility: 'permissioned',
        source: { kind: 'campaign', campaignId: campaign.id },
      },
    });
    expect(created.source).toEqual({ kind: 'campaign', campaignId: campaign.id, campaignName: 'Shore survey' });
    expect(created.from).toBe(now - 10 * DAY_MS);
    const { dataset } = await waitForDataset(created.id, manager.token);
    expect(dataset.status).toBe('frozen');
    expect(dataset.rows).toBe(readings.filter((r) => r.timestamp >= now - 10 * DAY_MS).length);

    const listed = await apiAs('datasets', manager.token).listCampaignDatasets({
      params: { id: campaign.id },
      query: { limit: 10 },
    });
    expect(listed.items.map((d) => d.id)).toEqual([dataset.id]);
    // A guest sees none of the campaign's permissioned datasets.
    const asGuest = await apiAs('datasets').listCampaignDatasets({ params: { id: campaign.id }, query: { limit: 10 } });
    expect(asGuest.items).toEqual([]);
  });

  it('answers 400 for bad requests and 404 for an unknown dataset', async () => {
    const datasets = apiAs('datasets', owner.token);
    const unknown = await apiRejection(datasets.getDataset({ params: { datasetId: 'ds_zzzzzzzzzzzz' } }));
    expect(unknown.status).toBe(404);
    const bad = await fetch(`${stack().endpoints.gateway}/datasets/datasets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ title: ' ', visibility: 'secret', source: { kind: 'devices', deviceIds: [] } }),
    });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toMatch(/Title cannot be empty/);
    expect(text).toMatch(/Visibility must be public or permissioned/);
    const reversed = await apiRejection(
      datasets.createDataset({
        body: {
          title: 'Backwards',
          visibility: 'permissioned',
          source: { kind: 'devices', deviceIds: [month.id] },
          from: now,
          to: now - DAY_MS,
        },
      }),
    );
    expect(reversed.status).toBe(400);
  });
});
