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

export const SensorDataMessage = z.discriminatedUnion('kind', [RollupMessage, ExportMessage]);
export type SensorDataMessage = z.infer<typeof SensorDataMessage>;

/** The FIFO group of a message: a device's roll-ups are worked in order, one at a time; each export on its own. */
export const sensorDataGroupOf = (message: SensorDataMessage): string =>
  message.kind === 'rollup' ? `device:${message.deviceId}` : `export:${message.exportId}`;

/** The one way to send to the sensor-data queue, so no sender forgets the message group. */
export const createSensorDataSender = ({ sqs, queueUrl }: { sqs: SQSClient; queueUrl: string }) =>
  createQueueSender<SensorDataMessage>({ sqs, queueUrl, queueName: 'sensor-data', groupOf: sensorDataGroupOf });
