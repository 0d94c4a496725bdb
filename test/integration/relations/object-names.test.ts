import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '../../../shared/contracts/client';
import { freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, type DemoEmail, documentClient, stack, tokenOf, uniqueId } from '../../support/stack';

/** POST /relations/names: names beside ids, only of what the caller may see (docs/relations.md, "Names"). */

const named = async (table: 'devices' | 'organizations' | 'campaigns', prefix: string) => {
  const id = uniqueId(prefix);
  await documentClient().send(
    new PutCommand({ TableName: stack().tables[table]!, Item: { id, name: `Name of ${id}` } }),
  );
  return id;
};

type NamesBody = Parameters<ReturnType<typeof apiAs<'relations'>>['names']>[0]['body'];
const namesWith = async (token: string, body: NamesBody) => (await apiAs('relations', token).names({ body })).items;
const namesAs = async (email: DemoEmail, body: NamesBody) => namesWith(await tokenOf(email), body);

// Fresh people, not demo accounts: the bare name-only records here would break a demo account's device and
// organization lists for every later test of the shared stack.
let owner: string;
let ownerToken: string;
let stranger: string;

beforeAll(async () => {
  ({ id: owner, token: ownerToken } = await freshUser({ prefix: 'names-owner' }));
  stranger = (await freshUser({ prefix: 'names-stranger' })).id;
});

describe('names of devices, organizations and campaigns', () => {
  it('answers the names of the objects the caller may view, and leaves out the rest and ids without a record', async () => {
    const mine = await named('devices', 'names-dev');
    const theirs = await named('devices', 'names-dev');
    const organization = await named('organizations', 'names-org');
    const campaign = await named('campaigns', 'names-camp');
    await seedRelation('device-owner', mine, owner);
    await seedRelation('device-owner', theirs, stranger);
    await seedRelation('organization-user', organization, owner);
    await seedRelation('campaign-manager', campaign, stranger);
    const objects = [
      { kind: 'device', id: mine },
      { kind: 'device', id: theirs },
      { kind: 'device', id: uniqueId('names-missing') },
      { kind: 'organization', id: organization },
      { kind: 'campaign', id: campaign },
    ] as const;

    expect(await namesWith(ownerToken, { objects: [...objects] })).toEqual([
      { kind: 'device', id: mine, name: `Name of ${mine}` },
      { kind: 'organization', id: organization, name: `Name of ${organization}` },
    ]);
    // Staff see every name that exists.
    expect((await namesAs('admin@example.com', { objects: [...objects] })).map((item) => item.id)).toEqual([
      mine,
      theirs,
      organization,
      campaign,
    ]);
  });

  it('names the devices an organization lists to its members, only with that organization and only its own', async () => {
    const organization = await named('organizations', 'names-org');
    const listed = await named('devices', 'names-dev');
    const unlisted = await named('devices', 'names-dev');
    await seedRelation('organization-user', organization, owner);
    await seedRelation('device-owner', listed, stranger);
    await seedRelation('device-owner', unlisted, stranger);
    await seedRelation('organization-device', organization, listed);
    const objects = [
      { kind: 'device', id: listed },
      { kind: 'device', id: unlisted },
    ] as const;

    // A member of the organization: its device's name, not that of a device it does not list.
    expect(
      await namesWith(ownerToken, { objects: [...objects], within: { kind: 'organization', id: organization } }),
    ).toEqual([{ kind: 'device', id: listed, name: `Name of ${listed}` }]);
    // Without the organization, the member holds nothing on either device.
    expect(await namesWith(ownerToken, { objects: [...objects] })).toEqual([]);
    // Naming an organization one is not a member of opens nothing.
    expect(
      await namesAs('distributor@example.com', {
        objects: [...objects],
        within: { kind: 'organization', id: organization },
      }),
    ).toEqual([]);
  });

  it('refuses a guest, an unknown kind and more than 100 objects', async () => {
    const status = async (call: () => Promise<unknown>) =>
      call().then(
        () => 200,
        (error: unknown) => (error instanceof ApiError ? error.status : 0),
      );
    expect(await status(() => apiAs('relations').names({ body: { objects: [{ kind: 'device', id: 'x' }] } }))).toBe(
      401,
    );
    const api = apiAs('relations', ownerToken);
    expect(await status(() => api.names({ body: { objects: [{ kind: 'person' as 'device', id: 'x' }] } }))).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({ kind: 'device' as const, id: `d-${i}` }));
    expect(await status(() => api.names({ body: { objects: many } }))).toBe(400);
  });
});
