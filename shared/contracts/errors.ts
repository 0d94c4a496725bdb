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

/**
 * The error body of a route whose `errorShape` is `odata` (the SensorThings API): OData JSON Format 4.01 §21.1, one
 * `error` member with `code` (the status, as text), `message`, `target` (the query option at fault, when one is) and
 * `details` (each field at fault, when there are several).
 */
export const ODataErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      target: z.string().optional(),
      details: z.array(z.object({ code: z.string(), message: z.string(), target: z.string() })).optional(),
    }),
  })
  .register(z.globalRegistry, { id: 'ODataErrorBody' });
export type ODataErrorBody = z.infer<typeof ODataErrorBody>;
