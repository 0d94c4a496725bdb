import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CallerName, RouteFixture } from './authz-fixture-types';
import { CALLERS, onOwnedOrForeign } from './authz-fixture-types';
import { seedRelation } from './relations';
import { type DemoEmail, documentClient, stack, subOf, uniqueId } from './stack';

/**
 * The authorization matrix's fixtures for the campaigns area (functions/campaigns). Objects are written straight
 * into their tables with their relations (as the APIs would write them), so each request meets a fresh object:
 * `owned` one the caller manages, `foreign` one another demo account manages.
 */

const DAY = 86_400_000;

const emailOf = (caller: CallerName): DemoEmail =>
  (caller === 'guest' ? 'user@example.com' : CALLERS[caller].email) as DemoEmail;

/** The caller's id, or another demo account's. */
const holderOf = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  if (whose === 'owned') return subOf(emailOf(caller));
  const other = (['user', 'approved'] as const).find((name) => name !== caller)!;
  return subOf(CALLERS[other].email as DemoEmail);
};

const put = (table: 'campaigns' | 'organizations', item: Record<string, unknown>) =>
  documentClient().send(new PutCommand({ TableName: stack().tables[table]!, Item: item }));

/** A campaign record (running now) managed by the caller or by someone else. */
export const campaign = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const manager = await holderOf(caller, whose);
  const now = Date.now();
  const id = crypto.randomUUID();
  await put('campaigns', {
    id,
    name: 'Matrix campaign',
    description: '',
    startsAt: now - DAY,
    endsAt: now + DAY,
    created: now,
    createdBy: manager,
    updated: now,
  });
  await seedRelation('campaign-manager', id, manager);
  return id;
};

const organization = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const id = uniqueId('authz-org');
  const manager = await holderOf(caller, whose);
  // The whole record the organizations area writes, so that its own lists read it like any other.
  const now = Date.now();
  await put('organizations', { id, name: 'Matrix organization', created: now, createdBy: manager, updated: now });
  await seedRelation('organization-manager', id, manager);
  return id;
};

const device = async (caller: CallerName, whose: 'owned' | 'foreign') => {
  const id = uniqueId('authz-device');
  await seedRelation('device-owner', id, await holderOf(caller, whose));
  return id;
};

export const CAMPAIGNS_FIXTURES: Record<string, RouteFixture> = {
  create: {
    prepare: async () => ({
      body: { name: uniqueId('Matrix'), startsAt: Date.now(), endsAt: Date.now() + DAY },
    }),
    // A campaign inside an organization: one the caller manages, or another person's.
    ...(() => {
      const inOrganization =
        (whose: 'owned' | 'foreign') =>
        async ({ caller }: { caller: CallerName }) => ({
          body: {
            name: uniqueId('Matrix'),
            startsAt: Date.now(),
            endsAt: Date.now() + DAY,
            organizationId: await organization(caller, whose),
          },
        });
      return { owned: inOrganization('owned'), foreign: inOrganization('foreign') };
    })(),
  },
  listAll: { prepare: async () => ({ query: { limit: 5 } }) },
  listMine: { prepare: async () => ({ query: { limit: 5 } }) },
  listByOrganization: onOwnedOrForeign(organization, (id) => ({ params: { id }, query: { limit: 5 } })),
  get: onOwnedOrForeign(campaign, (id) => ({ params: { id } })),
  update: onOwnedOrForeign(campaign, (id) => ({ params: { id }, body: { description: 'Changed by the matrix' } })),
  delete: onOwnedOrForeign(campaign, (id) => ({ params: { id } })),
  deviceAccess: onOwnedOrForeign(device, (id) => ({ params: { id } })),
};
