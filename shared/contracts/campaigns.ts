import * as z from 'zod';
import { windowProblem } from '../campaigns/campaign-rules';
import { OptionalSafeText, SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, minGroup, signedIn } from './define-route';
import { CampaignId, ObjectId, RelationType } from './shapes';

export { CampaignId };

/** Latest instant a campaign may start or end: 2100-01-01T00:00:00Z (a typo guard, not a product limit). */
export const MAX_CAMPAIGN_TIME = Date.UTC(2100, 0, 1);

const Instant = (label: string) =>
  z
    .number({ error: `${label} must be a time in milliseconds` })
    .int(`${label} must be a whole number of milliseconds`)
    .min(0, `${label} cannot be before 1970`)
    .max(MAX_CAMPAIGN_TIME, `${label} must be before the year 2100`);

/** When a campaign runs: its data window, `[startsAt, endsAt]` in ms, both ends included. */
export const DataWindow = z.object({ startsAt: EpochMillis, endsAt: EpochMillis });
export type DataWindow = z.infer<typeof DataWindow>;

/** Derived at read time from the window and the clock; never stored. */
export const CampaignStatus = z.enum(['planned', 'running', 'ended']);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

export const Campaign = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  startsAt: EpochMillis,
  endsAt: EpochMillis,
  /** The organization that runs it, if any. */
  organizationId: z.string().optional(),
  status: CampaignStatus,
  created: EpochMillis,
  createdBy: z.string(),
  updated: EpochMillis,
});
export type Campaign = z.infer<typeof Campaign>;

/** A campaign in the caller's own list, with the caller's relation types to it. */
export const MyCampaign = Campaign.extend({ roles: z.array(RelationType) });
export type MyCampaign = z.infer<typeof MyCampaign>;

/** A campaign member's relation to it: the roles "my campaigns" lists and may be narrowed to. */
export const CampaignRole = RelationType.extract(['campaign-manager', 'campaign-user', 'campaign-participant']);
export type CampaignRole = z.infer<typeof CampaignRole>;

/** "My campaigns": a page, and optionally only the campaigns where the caller holds `role`. */
export const MyCampaignsQuery = PageQuery.extend({ role: CampaignRole.optional() });

/** Both ends given: they must make a window (an update with one end is checked against the stored other). */
const checkWindow = (w: { startsAt?: number; endsAt?: number }, ctx: z.RefinementCtx) => {
  if (w.startsAt === undefined || w.endsAt === undefined) return;
  const problem = windowProblem({ startsAt: w.startsAt, endsAt: w.endsAt });
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['endsAt'] });
};

const NewCampaign = z
  .object({
    name: SafeText('Name', 100),
    description: OptionalSafeText('Description', 2000).default(''),
    startsAt: Instant('Start'),
    endsAt: Instant('End'),
    /** Linking a campaign to an organization needs manage on the organization. */
    organizationId: ObjectId.optional(),
  })
  .strict()
  .superRefine(checkWindow);

const CampaignChanges = z
  .object({
    name: SafeText('Name', 100).optional(),
    description: OptionalSafeText('Description', 2000).optional(),
    startsAt: Instant('Start').optional(),
    endsAt: Instant('End').optional(),
    /** `null` unlinks the organization. */
    organizationId: ObjectId.nullable().optional(),
  })
  .strict()
  .superRefine(checkWindow);

/** "My access to this device": what granted it, and the data windows it is limited to. */
export const DeviceAccess = z.object({
  deviceId: z.string(),
  /** What granted the access: `staff`, a device relation type, or `campaign` (through campaigns). */
  via: z.string(),
  /**
   * `null`: unlimited (staff, a direct device relation). Otherwise the union of the windows of the caller's
   * campaigns that hold the device, sorted and merged; data outside them is not shown.
   */
  windows: z.array(DataWindow).nullable(),
  /** The campaigns that grant it (empty when unlimited). */
  campaignIds: z.array(z.string()),
});
export type DeviceAccess = z.infer<typeof DeviceAccess>;

const ById = z.object({ id: CampaignId });

export const campaigns = defineArea('campaigns', {
  create: defineRoute({
    method: 'POST',
    path: '/campaigns',
    access: signedIn,
    summary: 'Create a campaign; the creator becomes its campaign-manager. Model: docs/campaigns.md.',
    body: NewCampaign,
    response: Campaign,
    status: 201,
  }),
  listAll: defineRoute({
    method: 'GET',
    path: '/campaigns',
    access: minGroup('Employees'),
    summary: 'Every campaign, paged (staff).',
    query: PageQuery,
    response: page(Campaign),
  }),
  listMine: defineRoute({
    method: 'GET',
    path: '/campaigns/mine',
    access: signedIn,
    summary:
      "The caller's campaigns (any campaign-* relation to them), with the caller's roles, paged; `role`: only those " +
      'where the caller holds that role (e.g. campaign-manager: the campaigns they manage).',
    query: MyCampaignsQuery,
    response: page(MyCampaign),
  }),
  listByOrganization: defineRoute({
    method: 'GET',
    path: '/organizations/{id}/campaigns',
    access: signedIn,
    summary: "An organization's campaigns, newest start first, paged; needs view on the organization.",
    params: z.object({ id: ObjectId }),
    query: PageQuery,
    response: page(Campaign),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/campaigns/{id}',
    access: signedIn,
    summary: 'One campaign; needs view on it (any campaign-* relation, or staff).',
    params: ById,
    response: Campaign,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/campaigns/{id}',
    access: signedIn,
    summary: 'Change name, description, window or organization (only the fields sent); needs manage.',
    params: ById,
    body: CampaignChanges,
    response: Campaign,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/campaigns/{id}',
    access: signedIn,
    summary: 'Delete a campaign and all its relations (members and devices); needs manage.',
    params: ById,
    response: z.void(),
  }),
  deviceAccess: defineRoute({
    method: 'GET',
    path: '/device-access/{id}',
    access: signedIn,
    summary: "The caller's access to a device and the data windows it carries (null: unlimited); 403 without.",
    params: z.object({ id: ObjectId }),
    response: DeviceAccess,
  }),
});
