import * as z from 'zod';
import { subscriptionRoutes } from './api-subscriptions';
import { EpochMillis } from './common';
import { defineArea, defineRoute, guest } from './define-route';

/** Spec §7 `POST /api/aws` action `getSignedS3Url`: a short-lived GET of one object the caller may read. */
export const GetSignedS3Url = z
  .object({
    action: z.literal('getSignedS3Url', { error: () => 'action must be getSignedS3Url' }),
    params: z
      .object({
        bucket: z.string({ error: 'bucket must be text' }).min(1, 'bucket cannot be empty').max(63),
        key: z
          .string({ error: 'key must be text' })
          .min(1, 'key cannot be empty')
          .max(1024, 'key is at most 1024 characters'),
      })
      .strict(),
    /**
     * Sent by the spec's client. Never an identity: the caller is who the verified Authorization token says
     * (docs/sensor-data.md "Downloads"), so an id token in a body cannot act for anyone.
     */
    idToken: z.string().max(8192).optional(),
  })
  .strict();

export const SignedUrl = z.object({ url: z.string().url(), expiresAt: EpochMillis });

/**
 * The web app's own routes, served under `/api/...` (spec §7 "Other" and the subscription endpoints).
 * Routes arrive with their issues.
 */
export const api = defineArea('api', {
  aws: defineRoute({
    method: 'POST',
    path: '/api/aws',
    access: guest,
    summary:
      'getSignedS3Url: a presigned GET (5 minutes) of an export file (its creator, staff, or for a guest export ' +
      "whoever holds its id) or of a device's chart data (anyone who may view the device).",
    body: GetSignedS3Url,
    response: SignedUrl,
  }),
  ...subscriptionRoutes,
});
