import { localIdentityId, REALTIME_POLICY_NAME } from '../../shared/iot/realtime';
import { CALLERS, type FixtureContext, type RouteFixture } from './authz-fixture-types';
import { seedRelation } from './relations';
import { freshDevice, type TestDevice } from './sensor-data';
import { apiAs, type DemoEmail, subOf, tokenOf } from './stack';

let publicDevice: Promise<TestDevice> | undefined;
/** A public device: every signed-in caller may watch it live. */
const watchable = () => {
  publicDevice ??= freshDevice({ visibility: 'public' });
  return publicDevice;
};

const subOfCaller = ({ caller }: FixtureContext) =>
  caller === 'guest' ? Promise.resolve('guest') : subOf(CALLERS[caller].email as DemoEmail);

/** A private device of another demo user; `member`: the caller is made its device user. */
const privateDevice = async (context: FixtureContext, member: boolean) => {
  const owner: DemoEmail = context.caller === 'user' ? 'approved@example.com' : 'user@example.com';
  const device = await freshDevice({ owner });
  if (member) await seedRelation('device-user', device.id, await subOfCaller(context));
  return { params: { id: device.id }, body: {} };
};

/** The caller's own realtime identity (locally `local:{sub}`, what the API derives itself). */
const ownTarget = async (context: FixtureContext) => ({
  params: { policyName: REALTIME_POLICY_NAME },
  body: { target: localIdentityId(await subOfCaller(context)) },
});

/** Another demo account's realtime identity: nobody, staff included, acts for another person's browser. */
const othersIdentity = async ({ caller }: FixtureContext) =>
  localIdentityId(await subOf(caller === 'user' ? 'approved@example.com' : 'user@example.com'));

const othersTarget = async (context: FixtureContext) => ({
  params: { policyName: REALTIME_POLICY_NAME },
  body: { target: await othersIdentity(context) },
});

const unwatch = async (identityId: string) => ({ params: { id: (await watchable()).id }, query: { identityId } });

/** The authorization matrix's fixtures for the sensor-data-live routes (merged in authz-fixtures.ts). */
export const SENSOR_DATA_LIVE_FIXTURES: Record<string, RouteFixture> = {
  watchLive: {
    prepare: async () => ({ params: { id: (await watchable()).id }, body: {} }),
    owned: (context) => privateDevice(context, true),
    foreign: (context) => privateDevice(context, false),
  },
  unwatchLive: {
    prepare: async (context) => unwatch(localIdentityId(await subOfCaller(context))),
    owned: async (context) => unwatch(localIdentityId(await subOfCaller(context))),
    // Another person's watch of the public device, which stays.
    foreign: async (context) => {
      const other = context.caller === 'user' ? 'approved@example.com' : 'user@example.com';
      await apiAs('sensor-data', await tokenOf(other)).watchLive({ params: { id: (await watchable()).id }, body: {} });
      return unwatch(await othersIdentity(context));
    },
  },
  // Someone else's identity is refused for everyone, staff too (also in test/integration/sensor-data/live.test.ts).
  attachTargetPolicy: { prepare: ownTarget, owned: ownTarget, foreign: othersTarget },
  detachTargetPolicy: { prepare: ownTarget, owned: ownTarget, foreign: othersTarget },
};
