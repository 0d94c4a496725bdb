import * as z from 'zod';

/**
 * What the datasets queue carries (QUEUES.datasets): "do the next step of this dataset's build". Each delivery looks
 * at the record to find which step that is, so a repeated or late message does no step twice.
 */
export const BuildMessage = z.object({ kind: z.literal('build'), datasetId: z.string().min(1) });
export type BuildMessage = z.infer<typeof BuildMessage>;

/** One FIFO group per dataset: its steps never run side by side. */
export const buildGroupOf = (message: BuildMessage) => `dataset:${message.datasetId}`;
