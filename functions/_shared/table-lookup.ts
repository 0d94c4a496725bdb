import { type KeyDefinition, TABLES, type TableDefinition, type TableKey } from './tables';

/**
 * What each table holds that no staff tool may ever answer, and whether staff may look its items up by key
 * (`POST /system/batchGetDdbItems`, docs/system.md "Item look-up"). Every table of TABLES has an entry: a test
 * (`table-lookup.test.ts`) fails for a table added without one, so whoever adds a table decides both.
 *
 * - `secrets`: attributes holding a secret or what proves one: the hashes of device credentials, API keys and claim
 *   codes, and tokens that act for a person (one-click unsubscribe). The look-up removes them, and, as a second
 *   guard, any attribute at any depth whose name ends in hash, secret, token or password (`SECRET_NAME` in
 *   functions/system/domain/item-lookup.ts).
 * - `lookup`: allowed with what the table holds (the page shows it), or refused with the reason.
 */
export interface TablePolicy {
  secrets: readonly string[];
  lookup: { allowed: true; description: string } | { allowed: false; reason: string };
}

const allowed = (description: string, secrets: readonly string[] = []): TablePolicy => ({
  secrets,
  lookup: { allowed: true, description },
});
const refused = (reason: string, secrets: readonly string[] = []): TablePolicy => ({
  secrets,
  lookup: { allowed: false, reason },
});

export const TABLE_POLICIES: Partial<Record<TableKey, TablePolicy>> = {
  parameters: allowed('System parameters, by id.'),
  relations: allowed('Relations, by id (type#referrerId#referentId).'),
  accessVersions: allowed(
    "Each person's session record, by user id (sub): access version, disabled, signed out everywhere at, groups.",
  ),
  users: allowed("People's records (spec §3 User), by user id (sub)."),
  invites: refused(
    "Invites hold invited people's e-mail addresses and messages: staff read them through the users API's invite routes.",
  ),
  peopleLookups: refused('Holds only per-person hourly counters of e-mail look-ups: nothing a staff tool needs.'),
  authEvents: refused(
    'Sign-in events hold addresses and browsers: staff read a person\'s through "Sign-in events" on their page.',
  ),
  devices: allowed('Device records, by device id.', ['claimCodeHash']),
  deviceCredentials: refused('Holds only ingress credential ids and their hashes.', ['secretHash']),
  organizations: allowed('Organizations, by id.'),
  campaigns: allowed('Campaigns, by id.'),
  readings: allowed(
    "Raw readings, an item per batch and hour, by {deviceId}#{YYYY-MM-DD} (UTC day) and its first reading's time (ms).",
  ),
  rollups: allowed('Hourly and daily roll-ups, by {deviceId}#hour or {deviceId}#day and bucket start (ms).'),
  ingestStats: allowed('Accepted and refused readings, by device id and UTC day (YYYY-MM-DD).'),
  deviceSubscriptions: allowed("Each device's subscription record (its tier), by device id."),
  deviceSubscriptionHistory: allowed('Every subscription that covered a device, by device id and subscription id.'),
  migrations: allowed('Data migration runs, by migration id.'),
  billingEvents: refused("Holds only Stripe's event ids, kept to answer a repeated delivery once."),
  apiKeys: refused("Holds people's API key hashes; a person's keys are listed on their API page.", ['secretHash']),
  apiUsage: allowed('API requests per device and month, by {deviceId}#{YYYY-MM}.'),
  exports: allowed('Download exports, by export id.'),
  liveWatches: refused("Short-lived live watches; their topics name people's realtime identities."),
  notifications: allowed('Notifications, by id.'),
  alertRules: allowed('Alert rules, by id.'),
  alerts: allowed('Alerts (episodes of a rule on a device), by id.'),
  alertStates: allowed(
    "Each device's alert state (every rule's track, the outbox, when the sweep looks next), by device id.",
  ),
  dataQuality: allowed(
    "Each device's data quality, by device id and sk: its profile (profile), calibration versions (cal#…), exclusions (exc#…) and reprocessing run (job).",
  ),
  datasets: allowed('Datasets, by id (ds_…): their devices, windows, files with checksums, status and versions.'),
  webhooks: allowed('Webhooks, by id (wh_…): URL, events, target and state; the sealed signing secrets never leave.', [
    'secret',
    'previousSecret',
  ]),
  webhookDeliveries: refused(
    "Holds the events sent to customers' receivers (their readings) and the receivers' answers: the owner reads a webhook's log on its page.",
  ),
  auditLog: refused('The audit log is read through Admin → Audit log (Administrators), which keeps to its retention.'),
  codeReleases: allowed('Firmware releases, by id: product line, version, notes, artifact checksum, status.'),
  releaseTestRuns: allowed("A release's test runs, by release id and run id: status, log, who ran it."),
  releaseRollouts: allowed('Rollouts, by id: their release, targets, stages and adoption counters.'),
  rolloutTargets: allowed("Each rollout's devices and their update state, by rollout id and device id."),
  notificationDeliveries: refused("One item per person and notification: read through the notification's deliveries."),
  notificationPreferences: refused(
    "Holds each person's unsubscribe-link token, which acts for them: their choices show on their notifications page.",
    ['token'],
  ),
};

/**
 * Attributes set from a hash that are no secret: checksums of what the platform publishes, which anyone holding the
 * file computes (a dataset file's SHA-256 in its manifest). The scan for stored secrets passes them by.
 */
export const PUBLIC_DIGESTS: Readonly<Record<string, string>> = {
  sha256: "a published file's checksum (a dataset's manifest, a release's artifact): anyone with the file computes it",
};

const entries = () => Object.entries(TABLE_POLICIES) as [TableKey, TablePolicy][];

/** The tables staff may look items up in: the system area's only read grants besides its own (key reads only). */
export const LOOKUP_TABLES: TableKey[] = entries()
  .filter(([, policy]) => policy.lookup.allowed)
  .map(([table]) => table);

/** What the look-up needs of each table it may read: its key, what it holds and its secrets. */
export const lookupTableDefinitions = (): {
  table: TableKey;
  description: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
  secrets: readonly string[];
}[] =>
  entries().flatMap(([table, { secrets, lookup }]) => {
    if (!lookup.allowed) return [];
    const definition: TableDefinition = TABLES[table];
    return [
      {
        table,
        description: lookup.description,
        partitionKey: definition.partitionKey,
        ...(definition.sortKey ? { sortKey: definition.sortKey } : {}),
        secrets,
      },
    ];
  });

/** The tables that exist but may not be looked up, with the reason a refusal gives. */
export const refusedLookupTables = (): Map<string, string> =>
  new Map(entries().flatMap(([table, { lookup }]) => (lookup.allowed ? [] : [[table, lookup.reason] as const])));
