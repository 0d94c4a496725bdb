/**
 * Every migration, oldest first: the order they run in. An id is never reused or renamed (its record says it
 * ran); a migration is never edited once released, only followed by another. The deploy-time runner's custom
 * resource carries these ids, so a deploy that adds one runs it (infra/stacks/area-stack.ts).
 */
export const MIGRATIONS = [
  {
    id: '2026-10-01-relations-shape',
    description:
      'Relations to the current shape: deterministic ids, index sort keys and a creation time (the relations GET /migrate/ route, page by page).',
  },
  {
    id: '2026-11-25-subscription-history',
    description:
      "Each device's subscription record copied into the device's plan history, which now decides which of a device's subscriptions gives its tier.",
  },
  {
    id: '2026-11-29-webhook-presence-items',
    description:
      "The retired webhook presence job's per-device states (the `p#` items under each webhook in the webhook deliveries table, which never expired) removed: device.online and device.offline now come from the alerts area's presence track (decision 105).",
  },
] as const satisfies readonly { id: string; description: string }[];

export type MigrationId = (typeof MIGRATIONS)[number]['id'];
