import { z } from 'zod';

/**
 * What the sensor-data queue carries (QUEUES.sensorData), written by data-ingress and the sensor-data API,
 * worked by functions/sensor-data/worker.ts. Each message's work is idempotent: a redelivery recomputes
 * the same result.
 */
export const RollupMessage = z.object({
  kind: z.literal('rollup'),
  deviceId: z.string().min(1),
  /** Starts (ms, UTC) of the hours whose readings changed. */
  hours: z.array(z.number().int().nonnegative()).min(1).max(10_000),
});
export type RollupMessage = z.infer<typeof RollupMessage>;

export const ExportMessage = z.object({
  kind: z.literal('export'),
  exportId: z.string().min(1),
});
export type ExportMessage = z.infer<typeof ExportMessage>;

export const SensorDataMessage = z.discriminatedUnion('kind', [RollupMessage, ExportMessage]);
export type SensorDataMessage = z.infer<typeof SensorDataMessage>;
