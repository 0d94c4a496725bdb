import * as z from 'zod';

/** `.local/stack.json`: every endpoint and name of a running local stack, for tools and tests. */
export const StackInfo = z.object({
  env: z.literal('local'),
  region: z.string(),
  dataDir: z.string(),
  startedAt: z.string(),
  pid: z.number(),
  endpoints: z.object({
    gateway: z.string(),
    web: z.string().optional(),
    dynamodb: z.string(),
    cognito: z.string(),
    sqs: z.string(),
    s3: z.string(),
    ses: z.string(),
    mailViewer: z.string(),
    mqtt: z.string(),
    mqttWs: z.string(),
    /** IoT Core's data-plane Publish (the live view's publisher), served by the broker. */
    iotDataPlane: z.string().optional(),
    stripe: z.string(),
    /** The demo organization's own OpenID provider (issuer), federated to through the identity layer. */
    demoIdp: z.string().optional(),
    /** Real-user monitoring's collector: `GET /summary` shows each route's vitals, `GET /events` every event. */
    rum: z.string().optional(),
    /** The demo organization's webhook receiver: `/` lists what it received, `/received.json` too. */
    webhookReceiver: z.string().optional(),
  }),
  auth: z.object({ userPoolId: z.string(), clientId: z.string(), issuer: z.string() }),
  tables: z.record(z.string(), z.string()),
  buckets: z.record(z.string(), z.string()),
  queues: z.record(z.string(), z.string()),
  demo: z.object({
    /** The demo devices reporting every minute while the stack runs (none with `--no-simulate` and in the tests). */
    simulated: z.array(z.object({ deviceId: z.string(), link: z.enum(['https', 'mqtt']) })).optional(),
    password: z.string(),
    accounts: z.array(z.object({ email: z.string(), group: z.string().optional() })),
    /** Its people, who sign in at the provider (`identity_provider` = name), not at the platform. */
    identityProvider: z
      .object({
        name: z.string(),
        label: z.string(),
        password: z.string(),
        accounts: z.array(z.object({ email: z.string(), emailVerified: z.boolean() })),
      })
      .optional(),
  }),
});
export type StackInfo = z.infer<typeof StackInfo>;
