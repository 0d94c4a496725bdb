import { z } from 'zod';
import { AuditAction, AuditEntry, AuditSearch } from '../audit/audit-entry';
import { TIER_FEATURES_PARAMETER, TierFeaturesTable } from '../sensor-data/tier-features';
import { EpochMillis, PageQuery, page } from './common';
import { defineAudit, notAudited } from './define-audit';
import { defineArea, defineRoute, guest, minGroup, signedIn } from './define-route';
import { TiersTable } from './sensor-data-readings';

export const ParameterId = z
  .string()
  .trim()
  .min(1, 'Parameter id cannot be empty')
  .max(128, 'Parameter id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Parameter id may contain only letters, digits, ".", "_", ":" and "-"');

/** Any JSON value: parameters hold strings, numbers, flags or small documents. */
export const ParameterValue = z.json({
  error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a JSON value'),
});

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

/** Staff actions on the platform's settings (docs/audit.md). */
export const systemAudit = /* @__PURE__ */ defineAudit(system, {
  createParameter: {
    action: 'parameter.create',
    label: 'Created a system parameter',
    target: { kind: 'parameter', id: ({ body }) => body.id },
  },
  updateParameter: {
    action: 'parameter.update',
    label: 'Changed a system parameter',
    target: { kind: 'parameter', id: ({ params }) => params.id },
  },
  deleteParameter: {
    action: 'parameter.delete',
    label: 'Deleted a system parameter',
    target: { kind: 'parameter', id: ({ params }) => params.id },
  },
  putTierFeatures: {
    action: 'tier-features.update',
    label: 'Changed the tier features',
    target: { kind: 'parameter', id: () => TIER_FEATURES_PARAMETER },
  },
  // --- The audit log ---
  searchAudit: notAudited('reads the audit log'),
  listAuditActions: notAudited('a read'),
});
