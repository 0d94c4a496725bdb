import * as z from 'zod';

/** Every 4xx/5xx body the API sends. `issues` names each bad field of a 400. */
export const ErrorBody = z.object({
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
