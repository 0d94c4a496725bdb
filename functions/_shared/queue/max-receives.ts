/**
 * How many times each queue hands a message out before moving it to its dead-letter queue: the queues are created
 * with it (QUEUES in infra/definitions/storage.ts), and a worker's use case knows its last attempt by it (an export or
 * a dataset build is marked failed then, not left queued).
 */
export const MAX_RECEIVES = {
  jobs: 5,
  sensorData: 5,
  datasets: 5,
  rollouts: 5,
} as const;
