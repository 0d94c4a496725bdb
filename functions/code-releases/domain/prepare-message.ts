import * as z from 'zod';

/**
 * What the rollouts queue carries (QUEUES.rollouts): "assign the next devices of this preparing rollout" (decision
 * 114). Each delivery reads the rollout to find where its assignment stands, so a repeated or late message assigns no
 * device twice; one that finds the rollout no longer preparing does nothing.
 */
export const PrepareMessage = z.object({ kind: z.literal('prepare'), rolloutId: z.string().min(1) });
export type PrepareMessage = z.infer<typeof PrepareMessage>;

/** One FIFO group per rollout: its steps never run side by side. */
export const prepareGroupOf = (message: PrepareMessage) => `rollout:${message.rolloutId}`;
