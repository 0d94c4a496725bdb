import * as z from 'zod';
import { MESSAGES } from '../messages';
import { RELATION_TYPES } from '../relations/relation-types';
import { PRODUCT_LINE_NAMES } from '../text/product-words';
import { EpochMillis, MAX_PAGE_SIZE } from './common';

/**
 * Schemas that more than one area's contract names: ids, product lines, firmware versions, relations, cart items,
 * the tiers table. They live here, not in their area's contract file, because a contract file also defines its area's routes at
 * import, which no bundler can drop: naming `DeviceId` from `devices.ts` put the devices and users routes into every
 * area's Lambda (docs/decisions/029-small-lambdas.md). The area files re-export theirs.
 */

/**
 * A user's id: the identity provider's username, which is the `sub` of the user's tokens. Spec §5: the
 * string "undefined" (what a client sends when it lost the value) is refused rather than looked up.
 */
export const UserId = z
  .string()
  .trim()
  .min(1, 'User id cannot be empty')
  .max(128, 'User id is at most 128 characters')
  .refine((id) => id !== 'undefined', MESSAGES.accountNameUndefined)
  .refine((id) => /^[A-Za-z0-9._@+-]+$/.test(id), 'User id may contain only letters, digits and . _ @ + -');

export const CartItem = z.object({
  productId: z.string().trim().min(1, 'Product id cannot be empty').max(128),
  deviceId: z.string().trim().min(1, 'Device id cannot be empty').max(128),
  quantity: z.number().int().min(1, 'Quantity is at least 1').max(1000),
});
export type CartItem = z.infer<typeof CartItem>;

/** A device's id (docs/devices.md: `dev-` + the lower-cased serial, or a demo device's own). */
export const DeviceId = z
  .string()
  .trim()
  .min(1, 'Device id cannot be empty')
  .max(128, 'Device id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Device id may contain only letters, digits and the marks . _ : -');

/** Spec §9's tiers table names the product lines. */
export const PRODUCT_LINES = ['sd1', 'al30', 'al60', 'al80'] as const;
export const ProductLine = z.enum(PRODUCT_LINES, {
  error: () => `Product line must be one of: ${PRODUCT_LINES.join(', ')}`,
});
export type ProductLine = z.infer<typeof ProductLine>;
// Every line has the name people read (shared/text/product-words.ts), and no other.
PRODUCT_LINE_NAMES satisfies Record<ProductLine, string>;

/** Semantic-version-like: `1.4.2`, `2.0.0-rc.1`. */
export const FirmwareVersion = z
  .string({ error: 'Firmware version must be text' })
  .trim()
  .min(1, 'Firmware version cannot be empty')
  .max(32, 'Firmware version is at most 32 characters')
  .regex(/^[0-9]+(\.[0-9]+){0,3}([-+][A-Za-z0-9.-]+)?$/, 'Firmware version must look like 1.2.3 (or 1.2.3-rc.1)');

/** An id at either end of a relation: a user's sub, a device, organization, campaign or invite id. */
export const ObjectId = z
  .string()
  .trim()
  .min(1, 'Id cannot be empty')
  .max(128, 'Id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:@+-]+$/, 'Id may contain only letters, digits and the marks . _ : @ + -');

/**
 * A campaign's id: the API gives new campaigns a UUID; any relation-graph id is accepted when reading, since
 * campaigns named by relations before this area existed (demo data: `demo-campaign-1`) keep their ids.
 */
export const CampaignId = ObjectId;

export const RelationType = z.enum(RELATION_TYPES, {
  error: () => `Type must be one of: ${RELATION_TYPES.join(', ')}`,
});

/** `{x}` in the spec's list paths: the page size, 1 to 100. The next page's cursor travels in `?cursor=`. */
export const PageSize = z.coerce
  .number({ error: 'Page size must be a number' })
  .int('Page size must be a whole number')
  .min(1, `Page size must be from 1 to ${MAX_PAGE_SIZE}`)
  .max(MAX_PAGE_SIZE, `Page size must be from 1 to ${MAX_PAGE_SIZE}`);

export const Relation = z.object({
  id: z.string(),
  type: RelationType,
  referrerId: z.string(),
  referentId: z.string(),
  /** Milliseconds; 0 for a legacy row whose creation time was never recorded. */
  created: EpochMillis,
  /** The user who created it; absent on legacy rows. */
  createdBy: z.string().optional(),
});
export type Relation = z.infer<typeof Relation>;

/** A serial names one device: its id follows from it, so a second registration is a conditional-write conflict. */
export const deviceIdOf = (serial: string): string => `dev-${serial.toLowerCase()}`;

export const TierId = z.enum(['tier0', 'free', 'tier1', 'tier2', 'tier3']);

export const TierFeatures = z.object({
  historicalDataAccessDays: z.number(),
  manualDataDownloadPublicAccessDays: z.number().nullable(),
  manualDataDownloadPermissionedAccessDays: z.number().nullable(),
  apiAccess: z.boolean(),
  apiMaxRequests: z.number(),
});

/** A row of spec §9's tiers table; `chosen` names the cells the spec leaves "not shown" (docs/sensor-data.md). */
export const TierInfo = z.object({
  tier: TierId,
  name: z.string(),
  features: TierFeatures,
  chosen: z.array(z.string()),
});
export type TierInfo = z.infer<typeof TierInfo>;

export const TiersTable = z.object({
  productLines: z.array(z.object({ productLine: ProductLine, tiers: z.array(TierInfo) })),
});
export type TiersTable = z.infer<typeof TiersTable>;
