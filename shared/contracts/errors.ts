import * as z from 'zod';

/**
 * Every 4xx/5xx body the API sends. `issues` names each bad field of a 400. Named: an OpenAPI document holds it once,
 * under components/schemas, and a client generator makes one error type of it.
 */
export const ErrorBody = z
  .object({
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .register(z.globalRegistry, { id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;
