import * as z from 'zod';
import { REALTIME_POLICY_NAME } from '../iot/realtime';
import { EpochMillis } from './common';
import { defineRoute, type Routes, signedIn } from './define-route';
import { DeviceId } from './shapes';

/** What the live part answers in its own words (the spec leaves them open). */
export const LIVE_MESSAGES = {
  idTokenNeeded: 'An ID token (idToken) is needed to find your realtime identity',
  idTokenNotYours: 'The ID token is not the signed-in user’s',
  notYourIdentity: 'The target must be your own realtime identity',
  notYourWatch: 'This live watch is someone else’s',
  unknownPolicy: `The only policy that can be attached is ${REALTIME_POLICY_NAME}`,
} as const;

/** A realtime (Cognito) identity id: `{region}:{uuid}` in the cloud, `local:{sub}` locally. */
export const IdentityId = z
  .string({ error: 'Identity id must be text' })
  .trim()
  .min(1, 'Identity id cannot be empty')
  .max(128, 'Identity id is at most 128 characters')
  .regex(/^[A-Za-z0-9:_-]+$/, 'Identity id may contain only letters, digits and the marks : _ -');

/** The caller's ID token: in the cloud the server finds the caller's identity id with it (Cognito GetId). */
const IdToken = z.string({ error: 'idToken must be text' }).min(1).max(8192).optional();

export const LiveWatch = z.object({
  deviceId: z.string(),
  /** The realtime identity that reads the topic (the MQTT username locally). */
  identityId: z.string(),
  /** The only topic the platform sends this device's readings to for this watcher. */
  topic: z.string(),
  /** When the watch ends unless renewed (ms since the epoch). */
  expiresAt: EpochMillis,
});
export type LiveWatch = z.infer<typeof LiveWatch>;

/**
 * What a live message on a watcher topic carries (the publisher sends the device's newest readings): raw values, as
 * stored, with the reasons of those ingest's checks flagged (docs/data-quality.md); a chart showing corrected values
 * applies the device's calibrations itself.
 */
export const LiveMessage = z.object({
  deviceId: z.string(),
  readings: z.array(
    z.object({
      timestamp: z.number(),
      values: z.record(z.string(), z.number()),
      flags: z.record(z.string(), z.array(z.string())).optional(),
    }),
  ),
});
export type LiveMessage = z.infer<typeof LiveMessage>;

const PolicyName = z.literal(REALTIME_POLICY_NAME, { error: LIVE_MESSAGES.unknownPolicy });
const TargetBody = z.object({ target: IdentityId, idToken: IdToken });
const TargetPolicyResult = z.object({
  policyName: z.string(),
  target: z.string(),
  /** `iot`: attached or detached in IoT Core; `local`: nothing to do (the local broker checks each subscription). */
  applied: z.enum(['iot', 'local']),
});

/** The sensor-data area's live routes (docs/sensor-data.md, "Live view"); composed into the area in sensor-data.ts. */
export const liveRoutes = {
  watchLive: defineRoute({
    method: 'PUT',
    path: '/live-watches/{id}',
    access: signedIn,
    summary:
      'Start (or renew) watching a device live: checks view access and answers the caller’s own topic its readings go to',
    params: z.object({ id: DeviceId }),
    body: z.object({ idToken: IdToken }),
    response: LiveWatch,
  }),
  unwatchLive: defineRoute({
    method: 'DELETE',
    path: '/live-watches/{id}',
    access: signedIn,
    summary: 'Stop watching a device live (only the caller’s own watch; nothing to stop is fine)',
    params: z.object({ id: DeviceId }),
    query: z.object({ identityId: IdentityId }),
    response: z.void(),
  }),
  attachTargetPolicy: defineRoute({
    method: 'PUT',
    path: '/target-policies/{policyName}',
    access: signedIn,
    summary: `Spec §7: attach ${REALTIME_POLICY_NAME} to the caller’s own realtime identity`,
    params: z.object({ policyName: PolicyName }),
    body: TargetBody,
    response: TargetPolicyResult,
  }),
  detachTargetPolicy: defineRoute({
    method: 'POST',
    path: '/target-policies/{policyName}',
    access: signedIn,
    summary: `Spec §7: detach ${REALTIME_POLICY_NAME} from the caller’s own realtime identity`,
    params: z.object({ policyName: PolicyName }),
    body: TargetBody,
    response: TargetPolicyResult,
  }),
} satisfies Routes;
