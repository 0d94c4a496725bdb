import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { campaign } from './authz-campaigns-fixtures';
import { deviceOwnedBy } from './authz-devices-fixtures';
import type { CallerName, FixtureRequest, RouteFixture } from './authz-fixture-types';
import { seedRelation } from './relations';
import { apiAs, type DemoEmail, documentClient, stack, tokenOf } from './stack';

// Only types from authz-fixtures: it imports this module.
const emailOf = (caller: CallerName): DemoEmail => `${caller}@example.com` as DemoEmail;
/** Another demo account than the caller's, to own the `foreign` device. */
const otherThan = (caller: CallerName): DemoEmail => (caller === 'user' ? 'approved@example.com' : 'user@example.com');

const HOUR = 60 * 60 * 1000;
const calibration = () => ({
  measurement: 'pm2_5',
  formula: { kind: 'linear', a: 1, b: 0 },
  effectiveFrom: Date.now() - 24 * HOUR,
  note: 'Made by the authorization matrix',
});
const exclusion = () => ({ from: Date.now() - 3 * HOUR, to: Date.now() - 2 * HOUR, reason: 'Matrix' });

/** The device has reported pm2_5, as ingest records it: a calibration names a measurement the device has. */
const reporting = async (deviceId: string) => {
  await documentClient().send(
    new UpdateCommand({
      TableName: stack().tables.devices!,
      Key: { id: deviceId },
      UpdateExpression: 'ADD measurementNames :names',
      ExpressionAttributeValues: { ':names': new Set(['pm2_5']) },
    }),
  );
  return deviceId;
};

/** A route on a device: a public one for every caller of a guest route, the caller's own or another's for the rest. */
const onDevice = (request: (id: string) => Promise<FixtureRequest> | FixtureRequest, publicToAll: boolean) => ({
  prepare: async ({ caller }: { caller: CallerName }) =>
    request(
      await reporting(
        publicToAll || caller === 'guest'
          ? await deviceOwnedBy('approved@example.com', { visibility: 'public' })
          : await deviceOwnedBy(emailOf(caller)),
      ),
    ),
  owned: async ({ caller }: { caller: CallerName }) => request(await reporting(await deviceOwnedBy(emailOf(caller)))),
  foreign: async ({ caller }: { caller: CallerName }) =>
    request(await reporting(await deviceOwnedBy(otherThan(caller)))),
});

/** An exclusion made by staff (who may change any device's data) on the device, for the caller to remove. */
const deviceExclusion = async (id: string) => {
  const made = await apiAs('sensor-data', await tokenOf('admin@example.com')).addExclusion({
    params: { id },
    body: exclusion(),
  });
  return { params: { id, exclusionId: made.id } };
};

/** A running campaign (the caller's or another's) holding one device that reports pm2_5. */
const campaignWithDevice = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const id = await campaign(caller, whose);
  await seedRelation('campaign-device', id, await reporting(await deviceOwnedBy('approved@example.com')));
  return id;
};

const onCampaign = (request: (id: string) => Promise<FixtureRequest> | FixtureRequest): RouteFixture => ({
  prepare: async ({ caller }) => request(await campaignWithDevice(caller, 'owned')),
  owned: async ({ caller }) => request(await campaignWithDevice(caller, 'owned')),
  foreign: async ({ caller }) => request(await campaignWithDevice(caller, 'foreign')),
});

const campaignExclusion = async (id: string) => {
  const made = await apiAs('sensor-data', await tokenOf('admin@example.com')).addCampaignExclusion({
    params: { id },
    body: exclusion(),
  });
  return { params: { id, exclusionId: made.id } };
};

/** The authorization matrix's fixtures for the data-quality routes (docs/data-quality.md; merged in authz-fixtures.ts). */
export const SENSOR_DATA_QUALITY_FIXTURES: Record<string, RouteFixture> = {
  listCalibrations: onDevice((id) => ({ params: { id } }), true),
  addCalibration: onDevice((id) => ({ params: { id }, body: calibration() }), false),
  listExclusions: onDevice((id) => ({ params: { id } }), true),
  addExclusion: onDevice((id) => ({ params: { id }, body: exclusion() }), false),
  removeExclusion: onDevice(deviceExclusion, false),
  reprocessing: onDevice((id) => ({ params: { id } }), true),
  listCampaignCalibrations: onCampaign((id) => ({ params: { id } })),
  addCampaignCalibration: onCampaign((id) => ({ params: { id }, body: calibration() })),
  listCampaignExclusions: onCampaign((id) => ({ params: { id } })),
  addCampaignExclusion: onCampaign((id) => ({ params: { id }, body: exclusion() })),
  removeCampaignExclusion: onCampaign(campaignExclusion),
};
