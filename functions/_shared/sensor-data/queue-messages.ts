import type { SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import { createQueueSender } from '../queue/queue-sender';

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
  /**
   * The earliest time (ms, UTC) the worker recomputes: ingest's coalescing (`rollupNotBefore`). Until then the worker
   * puts the message back out of sight; absent, at once.
   */
  notBefore: z.number().int().nonnegative().optional(),
});
export type RollupMessage = z.infer<typeof RollupMessage>;

export const ExportMessage = z.object({
  kind: z.literal('export'),
  exportId: z.string().min(1),
});
export type ExportMessage = z.infer<typeof ExportMessage>;

/**
 * A step of a device's reprocessing (docs/data-quality.md "Reprocessing"): the run's step at `cursor` (ms), or without
 * it a wake-up after a change, which starts a run unless one is under way.
 */
export const ReprocessMessage = z.object({
  kind: z.literal('reprocess'),
  deviceId: z.string().min(1),
  cursor: z.number().int().nonnegative().optional(),
});
export type ReprocessMessage = z.infer<typeof ReprocessMessage>;

export const SensorDataMessage = z.discriminatedUnion('kind', [RollupMessage, ExportMessage, ReprocessMessage]);
export type SensorDataMessage = z.infer<typeof SensorDataMessage>;

/**
 * The FIFO group of a message: a device's roll-ups and reprocessing are worked in order, one at a time; each export on
 * its own.
 */
export const sensorDataGroupOf = (message: SensorDataMessage): string =>
  message.kind === 'export' ? `export:${message.exportId}` : `device:${message.deviceId}`;

/** The one way to send to the sensor-data queue, so no sender forgets the message group. */
export const createSensorDataSender = ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }) =>
  createQueueSender<SensorDataMessage>({ sqs, queueUrl, queueName: 'sensor-data', groupOf: sensorDataGroupOf });
