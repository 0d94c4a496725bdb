import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import type { DeviceConnection } from '../../shared/iot/device-connection';
import { MAX_CLOCK_SKEW_MS } from '../../shared/sensor-data/measurements';
import { ensureDemoCredentials } from './bootstrap';
import { httpsLink, mqttLink } from './demo-device-links';
import { DEMO_SENSOR_DATA, type DemoSensorData } from './demo-readings';
import { machineUtcOffsetMinutes, type Random, seededRandom } from './demo-shapes';
import { createDemoSimulator, type DemoClock, type SimulatedDevice, systemClock } from './demo-simulator';

export interface DemoSimulationOptions {
  db: DynamoDBDocumentClient;
  tables: Record<string, string>;
  /** Where the devices' tokens are kept between starts (the data directory). */
  credentialsFile: string;
  /** What the device page tells a person to configure on the device (`deviceConnectionOf` the runtime config). */
  connectionOf: (deviceId: string) => DeviceConnection;
  /** @default DEMO_SENSOR_DATA */
  devices?: readonly Pick<DemoSensorData, 'deviceId' | 'profile' | 'link' | 'silence'>[];
  /** @default the system clock */
  clock?: DemoClock;
  /** @default a generator seeded with the start time */
  random?: Random;
  /** The local time the daily shapes follow. @default this machine's time zone */
  utcOffsetMinutes?: number;
  log: (line: string) => void;
}

/**
 * The demo devices wired to a running stack: each gets its credential (made or read by the bootstrap), a link to the
 * endpoint its connection names, and its backfill from the readings table. Answers the simulator, not started.
 */
export const createDemoSimulation = async ({
  db,
  tables,
  credentialsFile,
  connectionOf,
  devices = DEMO_SENSOR_DATA,
  clock = systemClock,
  random = seededRandom(clock.now()),
  utcOffsetMinutes = machineUtcOffsetMinutes(clock.now()),
  log,
}: DemoSimulationOptions) => {
  const tokens = await ensureDemoCredentials({
    db,
    tables,
    file: credentialsFile,
    deviceIds: devices.map((device) => device.deviceId),
    now: clock.now(),
    log,
  });
  const simulated: SimulatedDevice[] = [];
  for (const { deviceId, profile, link, silence } of devices) {
    const token = tokens.get(deviceId);
    if (!token) continue;
    const connection = connectionOf(deviceId);
    const made =
      link === 'https'
        ? connection.httpsUrl && httpsLink(connection.httpsUrl, token)
        : connection.mqtt && mqttLink(connection.mqtt, token);
    if (!made) {
      log(`demo device ${deviceId}: this environment has no ${link.toUpperCase()} ingress; it does not report`);
      continue;
    }
    simulated.push({
      deviceId,
      profile,
      utcOffsetMinutes,
      link: made,
      ...(silence ? { silence } : {}),
    });
  }
  const readings = createReadingsStore({ db, tableName: tables.readings! });
  return createDemoSimulator({
    devices: simulated,
    clock,
    random,
    newestReading: async (deviceId, since) => {
      const to = clock.now() + MAX_CLOCK_SKEW_MS;
      const [newest] = await readings.query(deviceId, { from: since, to, order: 'desc', limit: 1 });
      return newest?.timestamp;
    },
    log,
  });
};
