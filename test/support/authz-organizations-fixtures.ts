import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { StoredOrganization } from '../../functions/organizations/domain/ports';
import type { OrganizationRole } from '../../shared/contracts/organizations';
import {
  CALLERS,
  type CallerName,
  type FixtureContext,
  type FixtureRequest,
  type RouteFixture,
} from './authz-fixture-types';
import { seedOrganization } from './organizations';
import { type DemoEmail, s3Client, stack, subOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the organizations area (functions/organizations). Each call gets its own
 * organization, written straight into the table with its relations (as the area's create does), so a deletion or
 * change never touches another call's object. `owned`: the caller holds a role that allows the route; `foreign`:
 * another person manages it and the caller holds nothing. Creating one through the API makes the caller a
 * manager, so that route runs as a fresh twin of the caller.
 */

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

/** A demo user other than the caller, to manage the foreign organizations. */
const otherThan = async (caller: CallerName) =>
  subOf((caller === 'user' ? 'approved@example.com' : 'user@example.com') as DemoEmail);

/** An uploaded (not yet confirmed) logo object of the organization, as the presigned PUT leaves it. */
const uploadedLogo = async (organizationId: string) => {
  const key = `organizations/${organizationId}/logo-${randomUUID()}`;
  await s3Client().send(
    new PutObjectCommand({ Bucket: stack().buckets.logos, Key: key, Body: PNG, ContentType: 'image/png' }),
  );
  return key;
};

/** Test set-up only: an organization whose `holder` has `role`, with its own logo when asked. */
const seedMatrixOrganization = async (holder: string, role: OrganizationRole, { withLogo = false } = {}) => {
  const id = uniqueId('authz-org');
  const logo = withLogo
    ? { key: await uploadedLogo(id), contentType: 'image/png' as const, size: PNG.length, updated: Date.now() }
    : undefined;
  return seedOrganization(holder, { id, role, name: 'Matrix Org', logo });
};

type Whose = 'prepare' | 'owned' | 'foreign';

/**
 * A route on one organization: for `prepare` the caller manages it (every route allows a manager); for `owned`
 * the caller holds `ownedRole`, the least role the route allows; for `foreign` someone else manages it.
 */
const onOrganization = (
  request: (organization: StoredOrganization) => Promise<FixtureRequest> | FixtureRequest,
  { ownedRole = 'organization-manager' as OrganizationRole, withLogo = false } = {},
): RouteFixture => {
  const make =
    (whose: Whose) =>
    async ({ caller }: FixtureContext) => {
      const holder = whose === 'foreign' ? await otherThan(caller) : await subOf(emailOf(caller));
      const role = whose === 'owned' ? ownedRole : 'organization-manager';
      return request(await seedMatrixOrganization(holder, role, { withLogo }));
    };
  return { prepare: make('prepare'), owned: make('owned'), foreign: make('foreign') };
};

export const ORGANIZATIONS_FIXTURES: Record<string, RouteFixture> = {
  create: { twin: true, prepare: async () => ({ body: { name: 'Matrix Created' } }) },
  listMine: { prepare: async () => ({ query: { limit: 5 } }) },
  listAll: { prepare: async () => ({ query: { limit: 5 } }) },
  // Spec §6: viewing needs an organization relation; a participant (the least role) suffices.
  get: onOrganization(({ id }) => ({ params: { id } }), { ownedRole: 'organization-participant' }),
  update: onOrganization(({ id }) => ({ params: { id }, body: { description: 'Changed by the matrix' } })),
  delete: onOrganization(({ id }) => ({ params: { id } })),
  createLogoUpload: onOrganization(({ id }) => ({ params: { id }, body: { contentType: 'image/png', size: 100 } })),
  setLogo: onOrganization(async ({ id }) => ({ params: { id }, body: { key: await uploadedLogo(id) } })),
  deleteLogo: onOrganization(({ id }) => ({ params: { id } }), { withLogo: true }),
};
