import * as z from 'zod';
import { AuditAction, AuditEntry, AuditSearch } from '../audit/audit-entry';
import { TierFeaturesTable } from '../sensor-data/tier-features';
import { EpochMillis, JsonValue, PageQuery, page } from './common';
import { defineArea, defineRoute, guest, minGroup, signedIn } from './define-route';
import { DeviceId, TiersTable } from './shapes';

export const ParameterId = z
  .string()
  .trim()
  .min(1, 'Parameter id cannot be empty')
  .max(128, 'Parameter id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Parameter id may contain only letters, digits, ".", "_", ":" and "-"');

/**
 * Any JSON value: parameters hold strings, numbers, flags or small documents. Named, as it is recursive: an OpenAPI
 * document holds it once, under components/schemas (shared/contracts/openapi.ts).
 */
export const ParameterValue = z
  .json({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a JSON value') })
  .register(z.globalRegistry, { id: 'ParameterValue' });

export const Parameter = z.object({ id: ParameterId, value: ParameterValue, updated: EpochMillis });
export type Parameter = z.infer<typeof Parameter>;

const IdParams = z.object({ id: ParameterId });

/**
 * `updated` is accepted as the spec lists it, but the server stamps its own clock: a client cannot
 * back- or forward-date a change.
 */
const ParameterWrite = z.object({ value: ParameterValue, updated: EpochMillis.optional() }).strict();

/** The tier table in force, for its editor: `stored` false while the seed applies (no parameter stored). */
export const TierFeaturesSettings = TiersTable.extend({
  stored: z.boolean(),
  /** When administrators last saved it. */
  updated: EpochMillis.optional(),
});
export type TierFeaturesSettings = z.infer<typeof TierFeaturesSettings>;

/**
 * Cache files (docs/system.md, "Cache files"): the chart-data files of a device in the chart-data bucket, a month of
 * hourly roll-ups (`hour`, period `YYYY-MM`) or a year of daily ones (`day`, period `YYYY`), derived from the raw
 * readings and rebuilt from them.
 */
export const ChartResolution = z.enum(['hour', 'day'], { error: "resolution must be 'hour' or 'day'" });

const Period = z
  .string()
  .regex(/^\d{4}(-(0[1-9]|1[0-2]))?$/, 'period must be YYYY-MM (a month of hours) or YYYY (a year of days)');

export const CacheFile = z.object({
  key: z.string(),
  /** Null (with the period) for a file under the device's prefix that is not a chart-data file by its name. */
  resolution: ChartResolution.nullable(),
  period: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  /** When it was last written (ms; the store keeps whole seconds). */
  lastModified: EpochMillis,
});
export type CacheFile = z.infer<typeof CacheFile>;

const CacheFileRef = z.object({ key: z.string(), resolution: ChartResolution, period: z.string() });

/** A rebuild handed to the sensor-data worker: which hours it recomputes and which files it writes again. */
export const CacheRebuild = z.object({
  deviceId: z.string(),
  from: EpochMillis,
  to: EpochMillis,
  hours: z.number().int(),
  /** Roll-up messages queued, one per UTC month, worked in order with the device's own. */
  messages: z.number().int(),
  /** Every file the rebuild writes (again), empty ones included. */
  files: z.array(CacheFileRef),
  requestedAt: EpochMillis,
});
export type CacheRebuild = z.infer<typeof CacheRebuild>;

/** The longest range one load rebuilds. */
export const CACHE_LOAD_MAX_DAYS = 366;

const LoadOptions = z
  .object({
    deviceId: DeviceId,
    from: EpochMillis,
    /** @default now */
    to: EpochMillis.optional(),
  })
  .strict();

/** `{deviceId}` alone: every file of the device; with `resolution`: every file of it; with `period` too: one file. */
export const CachePath = z
  .object({ deviceId: DeviceId, resolution: ChartResolution.optional(), period: Period.optional() })
  .strict()
  .refine((p) => p.period === undefined || p.resolution !== undefined, {
    message: 'a period needs its resolution',
    path: ['resolution'],
  })
  .refine(
    (p) =>
      p.period === undefined || p.resolution === undefined || (p.resolution === 'hour') === (p.period.length === 7),
    {
      message: 'an hour file covers a month (YYYY-MM), a day file a year (YYYY)',
      path: ['period'],
    },
  );
export type CachePath = z.infer<typeof CachePath>;

export const CacheEviction = z.object({
  deleted: z.array(
    z.object({ key: z.string(), resolution: ChartResolution.nullable(), period: z.string().nullable() }),
  ),
  /** The paths that named no file. */
  notFound: z.array(CachePath),
  /** With `options.rebuild`: what was queued to write the evicted files again, per device. */
  rebuilds: z.array(CacheRebuild),
  evictedAt: EpochMillis,
});
export type CacheEviction = z.infer<typeof CacheEviction>;

/** The most keys one look-up reads: DynamoDB's BatchGetItem limit. */
export const LOOKUP_MAX_KEYS = 100;

const KeyValue = z.union([z.string().min(1, 'A key value cannot be empty').max(2048), z.number().finite()]);
export const ItemKey = z.record(z.string(), KeyValue);
export type ItemKey = z.infer<typeof ItemKey>;

const KeyAttribute = z.object({ name: z.string(), type: z.enum(['S', 'N']) });

/** A table staff may look items up in (docs/system.md, "Item look-up"). */
export const LookupTable = z.object({
  table: z.string(),
  description: z.string(),
  partitionKey: KeyAttribute,
  sortKey: KeyAttribute.optional(),
  /** Attributes never answered (secrets), besides any whose name ends in hash, secret, token or password. */
  withheld: z.array(z.string()),
});
export type LookupTable = z.infer<typeof LookupTable>;

const Item = z.record(z.string(), JsonValue);

export const BatchGetResult = z.object({
  /** Per table (its platform key, e.g. `devices`), the items found, secrets withheld. */
  Responses: z.record(z.string(), z.array(Item)),
  /** Keys DynamoDB left unread after the retries: ask for them again. */
  UnprocessedKeys: z.record(z.string(), z.object({ Keys: z.array(ItemKey) })),
  /** Keys read with no item. */
  missing: z.record(z.string(), z.array(ItemKey)),
  /** Per table, the attributes removed from its items. */
  withheld: z.record(z.string(), z.array(z.string())),
});
export type BatchGetResult = z.infer<typeof BatchGetResult>;

export const system = defineArea('system', {
  listParameters: defineRoute({
    method: 'GET',
    path: '/parameters',
    access: signedIn,
    summary: 'List system parameters, paged by id (not in the spec: the admin page needs it).',
    query: PageQuery,
    response: page(Parameter),
  }),
  getParameter: defineRoute({
    method: 'GET',
    path: '/parameters/{id}',
    access: signedIn,
    summary: 'Read one system parameter.',
    params: IdParams,
    response: Parameter,
  }),
  createParameter: defineRoute({
    method: 'POST',
    path: '/parameter/',
    access: minGroup('Administrators'),
    summary: 'Create a system parameter; 409 when the id exists.',
    body: ParameterWrite.extend({ id: ParameterId }).strict(),
    response: Parameter,
    status: 201,
  }),
  updateParameter: defineRoute({
    method: 'PUT',
    path: '/update-parameter/{id}',
    access: minGroup('Administrators'),
    summary: "Replace a system parameter's value; 404 when it does not exist.",
    params: IdParams,
    body: ParameterWrite,
    response: Parameter,
  }),
  deleteParameter: defineRoute({
    method: 'DELETE',
    path: '/delete-parameter/{id}',
    access: minGroup('Administrators'),
    summary: 'Delete a system parameter; 404 when it does not exist.',
    params: IdParams,
    response: z.void(),
  }),
  getTierFeatures: defineRoute({
    method: 'GET',
    path: '/tier-features',
    // What each tier gives is pricing information: anyone may read it, as GET /sensor-data/tiers.
    access: guest,
    summary:
      "The tier-features table in force (the `tier-features` parameter, else the seed from today's table), and whether it is stored.",
    response: TierFeaturesSettings,
  }),
  putTierFeatures: defineRoute({
    method: 'PUT',
    path: '/tier-features',
    access: minGroup('Administrators'),
    summary:
      "Replace the tier-features table: per product line, each of its tiers' features. A higher tier never gives less than a lower one; applies on the next read. DELETE /delete-parameter/tier-features restores the seed.",
    body: TierFeaturesTable,
    response: TierFeaturesSettings,
  }),
  listCacheFiles: defineRoute({
    method: 'GET',
    path: '/cache-files/{deviceId}',
    access: minGroup('Employees'),
    summary:
      "A device's cache files (not in the spec: the cache page needs it): its chart-data files, with size and when each was last written.",
    params: z.object({ deviceId: DeviceId }),
    response: z.object({ deviceId: z.string(), files: z.array(CacheFile) }),
  }),
  loadCacheFiles: defineRoute({
    method: 'POST',
    path: '/load-cache-files',
    access: minGroup('Employees'),
    summary: `Rebuild a device's cache files for a range (at most ${CACHE_LOAD_MAX_DAYS} days; \`to\` defaults to now) from its raw readings: the sensor-data worker recomputes the roll-ups of every hour in it, then the files of the months and years they touch. 202 with what was queued; 404 for an unknown device.`,
    body: z.object({ options: LoadOptions }).strict(),
    response: CacheRebuild,
    status: 202,
  }),
  deleteItemsFromCache: defineRoute({
    method: 'POST',
    path: '/delete-items-from-cache',
    access: minGroup('Administrators'),
    summary:
      'Evict cache files: each path a device, a device and resolution, or one file. Charts read nothing for an evicted period until it is rebuilt (`options.rebuild` queues that at once) or new readings arrive in it. Administrators only.',
    body: z
      .object({
        pathObjectsArray: z.array(CachePath).min(1, 'Name at least one path').max(100, 'At most 100 paths'),
        options: z
          .object({ rebuild: z.boolean().default(false) })
          .strict()
          .default({ rebuild: false }),
      })
      .strict(),
    response: CacheEviction,
  }),
  listLookupTables: defineRoute({
    method: 'GET',
    path: '/lookup-tables',
    access: minGroup('Employees'),
    summary:
      'The tables batchGetDdbItems reads (not in the spec: the look-up page needs it), with their keys and what each withholds.',
    response: z.object({ items: z.array(LookupTable) }),
  }),
  batchGetDdbItems: defineRoute({
    method: 'POST',
    path: '/batchGetDdbItems',
    access: minGroup('Employees'),
    summary: `Items by key, as DynamoDB's BatchGetItem, from the allowed tables named by their platform key (GET /lookup-tables); at most ${LOOKUP_MAX_KEYS} keys; secrets are never answered. Keys still unprocessed after retries come back in UnprocessedKeys.`,
    body: z
      .object({
        params: z
          .object({ RequestItems: z.record(z.string(), z.object({ Keys: z.array(ItemKey).min(1) }).strict()) })
          .strict(),
      })
      .strict(),
    response: BatchGetResult,
  }),
  // --- The audit log (docs/audit.md): spec §1 has no audit area, and the system area holds platform-wide tools. ---
  searchAudit: defineRoute({
    method: 'POST',
    path: '/audit',
    access: minGroup('Administrators'),
    summary:
      'Staff actions, newest first, by actor, target, action and time (each optional); paged. Entries are never changed or deleted.',
    query: PageQuery,
    body: AuditSearch,
    response: page(AuditEntry),
  }),
  listAuditActions: defineRoute({
    method: 'GET',
    path: '/audit/actions',
    access: minGroup('Administrators'),
    summary: 'Every action the audit log records, with its words and area, in the order of the contracts.',
    response: z.object({ items: z.array(AuditAction) }),
  }),
  // --- end of the audit log ---
});
