import { firmwareReportFixtures } from './authz-code-releases-fixtures';
import type { RouteFixture } from './authz-fixture-types';
import { freshDevice, type TestDevice } from './sensor-data';

let device: Promise<TestDevice> | undefined;
/** One device for the whole matrix: its credential is what these routes take. */
const ingressDevice = () => {
  device ??= freshDevice();
  return device;
};

/** The authorization matrix's fixtures for the data-ingress routes (merged in authz-fixtures.ts). */
export const DATA_INGRESS_FIXTURES: Record<string, RouteFixture> = {
  ingestReadings: {
    prepare: async () => ({ body: { readings: [{ timestamp: Date.now() - 1_000, values: { pm2_5: 3.5 } }] } }),
    credential: async () => ({ token: (await ingressDevice()).credential }),
  },
  getFirmware: {
    prepare: async () => ({}),
    credential: async () => ({ token: (await ingressDevice()).credential }),
  },
  reportFirmwareStatus: firmwareReportFixtures(async () => {
    const device = await ingressDevice();
    return { token: device.credential, deviceId: device.id };
  }),
};
