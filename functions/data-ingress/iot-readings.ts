import { iotRule } from '../_shared/iot/iot-rule';

/** The IoT rule on `devices/+/readings`: an MQTT batch of readings, into the same use case as the HTTPS path. */
export const handler = iotRule(
  'DataIngressReadings',
  async (event) => {
    throw new Error(`MQTT ingest is not built yet (${event.topic})`);
  },
  { deps: () => ({}) },
);
