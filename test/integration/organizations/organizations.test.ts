import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { LOGO_MAX_BYTES, type Organization } from '../../../shared/contracts/organizations';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { type FreshUser, freshUser } from '../../support/people';
import { seedRelation } from '../../support/relations';
import { apiAs, apiRejection, documentClient, everyPage, s3Client, stack, subOf, tokenOf } from '../../support/stack';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const organizationsAs = (token: string) => apiAs('organizations', token);
const staff = async () => organizationsAs(await tokenOf('employee@example.com'));

const objectExists = async (key: string) => {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: stack().buckets.logos, Key: key }));
    return true;
  } catch {
    return false;
  }
};

const relationExists = async (id: string) =>
  (await documentClient().send(new GetCommand({ TableName: stack().tables.relations, Key: { id } }))).Item !==
  undefined;

/** Uploads through the presigned URL as the web app does: the answered method and headers, the file as body. */
const upload = async (manager: FreshUser, id: string, body: Buffer, contentType = 'image/png', size = body.length) => {
  const target = await organizationsAs(manager.token).createLogoUpload({
    params: { id },
    body: { contentType: contentType as 'image/png', size },
  });
  const put = await fetch(target.url, {
    method: target.method,
    headers: { ...target.headers, origin: stack().endpoints.web ?? 'http://localhost:5173' },
    body: new Uint8Array(body),
  });
  return { target, put };
};

const allOrganizations = async (): Promise<Organization[]> => {
  const api = await staff();
  return everyPage((cursor) => api.listAll({ query: { limit: 100, ...(cursor ? { cursor } : {}) } }));
};

let ann: FreshUser;
let bob: FreshUser;

beforeAll(async () => {
  [ann, bob] = await Promise.all([freshUser({ prefix: 'org-ann' }), freshUser({ prefix: 'org-bob' })]);
});

describe('organizations', () => {
  it('makes the creator its manager; the organization is in their list with that role', async () => {
    const created = await organizationsAs(ann.token).create({
      body: { name: '  Acme <b>Sensors</b> ', description: 'Air quality', website: 'https://acme.example' },
    });
    expect(created).toMatchObject({ name: 'Acme bSensors/b', createdBy: ann.id, website: 'https://acme.example' });
    expect(await relationExists(relationId('organization-manager', created.id, ann.id))).toBe(true);

    const mine = await organizationsAs(ann.token).listMine({ query: { limit: 100 } });
    expect(mine.items).toContainEqual({ ...created, roles: ['organization-manager'] });
    expect(await organizationsAs(ann.token).get({ params: { id: created.id } })).toEqual(created);
  });

  it('seeds the demo organization: its demo manager and user list it with their roles', async () => {
    const manager = organizationsAs(await tokenOf('approved@example.com'));
    const approved = await everyPage((cursor) =>
      manager.listMine({ query: { limit: 100, ...(cursor ? { cursor } : {}) } }),
    );
    expect(approved).toContainEqual(
      expect.objectContaining({ id: 'demo-org-1', name: 'Northside Air Network', roles: ['organization-manager'] }),
    );
    const user = await organizationsAs(await tokenOf('user@example.com')).get({ params: { id: 'demo-org-1' } });
    expect(user.createdBy).toBe(await subOf('approved@example.com'));
  });

  it('serves a partial row written outside the area (no createdBy, no updated) and can change it', async () => {
    const id = `partial-${ann.id.slice(0, 8)}-${Date.now()}`;
    await documentClient().send(
      new PutCommand({ TableName: stack().tables.organizations, Item: { id, name: 'Partial', created: 5 } }),
    );
    await seedRelation('organization-manager', id, ann.id);
    const mine = await organizationsAs(ann.token).listMine({ query: { limit: 100 } });
    expect(mine.items).toContainEqual(expect.objectContaining({ id, createdBy: '', updated: 5 }));
    const changed = await organizationsAs(ann.token).update({ params: { id }, body: { description: 'Now complete' } });
    expect(changed).toMatchObject({ id, description: 'Now complete' });
    expect(changed.updated).toBeGreaterThan(5);
  });

  it('refuses a bad body with a clear 400', async () => {
    const error = await apiRejection(
      organizationsAs(ann.token).create({ body: { name: '<>', website: 'ftp://x' } as never }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('Name cannot be empty');
    expect(error.message).toContain('Website must start with http:// or https://');
  });

  it("lists the caller's own organizations; staff list every one; others may not list all", async () => {
    const [annsOrg, bobsOrg] = await Promise.all([
      organizationsAs(ann.token).create({ body: { name: 'Ann Org' } }),
      organizationsAs(bob.token).create({ body: { name: 'Bob Org' } }),
    ]);
    const annIds = (await organizationsAs(ann.token).listMine({ query: { limit: 100 } })).items.map((o) => o.id);
    expect(annIds).toContain(annsOrg.id);
    expect(annIds).not.toContain(bobsOrg.id);

    const allIds = (await allOrganizations()).map((o) => o.id);
    expect(allIds).toEqual(expect.arrayContaining([annsOrg.id, bobsOrg.id]));
    expect((await apiRejection(organizationsAs(ann.token).listAll({ query: {} }))).status).toBe(403);
  });

  it('lets a member read it and refuses a non-member (403); only a manager may change it', async () => {
    const { id } = await organizationsAs(ann.token).create({ body: { name: 'Members Only' } });
    const member = await freshUser({ prefix: 'org-member' });
    await seedRelation('organization-user', id, member.id);

    expect((await organizationsAs(member.token).get({ params: { id } })).name).toBe('Members Only');
    const stranger = await apiRejection(organizationsAs(bob.token).get({ params: { id } }));
    expect(stranger).toMatchObject({ status: 403, message: MESSAGES.accessDenied('organization') });

    const byUser = await apiRejection(organizationsAs(member.token).update({ params: { id }, body: { name: 'Mine' } }));
    expect(byUser.status).toBe(403);
    const changed = await organizationsAs(ann.token).update({
      params: { id },
      body: { name: 'Renamed', contactEmail: 'Ops@Acme.example' },
    });
    expect(changed).toMatchObject({ name: 'Renamed', contactEmail: 'ops@acme.example' });
  });

  it('deletes the organization with its relations and logo objects', async () => {
    const { id } = await organizationsAs(ann.token).create({ body: { name: 'Short Lived' } });
    const member = await freshUser({ prefix: 'org-leaver' });
    await seedRelation('organization-user', id, member.id);
    await seedRelation('organization-device', id, `dev-of-${id}`);
    const { target } = await upload(ann, id, PNG);
    await organizationsAs(ann.token).setLogo({ params: { id }, body: { key: target.key } });

    expect((await apiRejection(organizationsAs(member.token).delete({ params: { id } }))).status).toBe(403);
    await organizationsAs(ann.token).delete({ params: { id } });

    for (const relation of [
      relationId('organization-manager', id, ann.id),
      relationId('organization-user', id, member.id),
      relationId('organization-device', id, `dev-of-${id}`),
    ]) {
      expect(await relationExists(relation)).toBe(false);
    }
    expect(await objectExists(target.key)).toBe(false);
    expect((await apiRejection((await staff()).get({ params: { id } }))).status).toBe(404);
    // The former member's next request sees the change at once: no cached decision survives it.
    expect((await apiRejection(organizationsAs(member.token).get({ params: { id } }))).status).toBe(403);
    const mine = await organizationsAs(member.token).listMine({ query: {} });
    expect(mine.items.map((o) => o.id)).not.toContain(id);
  });
});

describe('the logo', () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await organizationsAs(ann.token).create({ body: { name: 'Logo Co' } }));
  });

  it('refuses a declared type that is not PNG, JPEG or WebP (SVG included), and a declared size over 1 MB', async () => {
    const api = organizationsAs(ann.token);
    const svg = await apiRejection(
      api.createLogoUpload({ params: { id }, body: { contentType: 'image/svg+xml' as 'image/png', size: 100 } }),
    );
    expect(svg.status).toBe(400);
    expect(svg.message).toContain(MESSAGES.organizationLogoType);
    const large = await apiRejection(
      api.createLogoUpload({ params: { id }, body: { contentType: 'image/png', size: LOGO_MAX_BYTES + 1 } }),
    );
    expect(large.status).toBe(400);
    expect(large.message).toContain(MESSAGES.organizationLogoTooLarge);
  });

  it('refuses an upload URL to a user who does not manage the organization', async () => {
    const error = await apiRejection(
      organizationsAs(bob.token).createLogoUpload({ params: { id }, body: { contentType: 'image/png', size: 10 } }),
    );
    expect(error.status).toBe(403);
  });

  it('takes a real PNG from a browser origin through the presigned URL; the read URL serves it', async () => {
    const origin = stack().endpoints.web ?? 'http://localhost:5173';
    const { target, put } = await upload(ann, id, PNG);
    expect(target.key).toMatch(new RegExp(`^organizations/${id}/logo-[0-9a-f-]{36}$`));
    expect(new URL(target.url).origin).toBe(new URL(stack().endpoints.s3).origin);
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(origin);
    // The browser's preflight for that PUT.
    const preflight = await fetch(target.url, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');

    const organization = await organizationsAs(ann.token).setLogo({ params: { id }, body: { key: target.key } });
    expect(organization.logo).toMatchObject({ key: target.key, contentType: 'image/png', size: PNG.length });
    const served = await fetch(organization.logoUrl!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await organizationsAs(ann.token).get({ params: { id } })).logo?.key).toBe(target.key);

    // A new logo replaces it, and the old object is deleted.
    const next = await upload(ann, id, PNG);
    await organizationsAs(ann.token).setLogo({ params: { id }, body: { key: next.target.key } });
    expect(await objectExists(target.key)).toBe(false);
    expect(await objectExists(next.target.key)).toBe(true);
  });

  it('refuses and deletes an object whose bytes are not the declared type', async () => {
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const { target, put } = await upload(ann, id, html, 'image/png');
    expect(put.status).toBe(200);
    const error = await apiRejection(organizationsAs(ann.token).setLogo({ params: { id }, body: { key: target.key } }));
    expect(error).toMatchObject({ status: 400, message: MESSAGES.organizationLogoMismatch('image/png') });
    expect(await objectExists(target.key)).toBe(false);
  });

  it('refuses and deletes an object larger than 1 MB, whatever size was declared', async () => {
    // The local S3 does not enforce the signed Content-Length as S3 does; the server's own check still holds.
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    const { target } = await upload(ann, id, big, 'image/png', 100);
    const error = await apiRejection(organizationsAs(ann.token).setLogo({ params: { id }, body: { key: target.key } }));
    expect(error).toMatchObject({ status: 400, message: MESSAGES.organizationLogoOversized });
    expect(await objectExists(target.key)).toBe(false);
  });

  it("refuses a key that is not this organization's upload, or was never uploaded", async () => {
    const api = organizationsAs(ann.token);
    const other = await apiRejection(
      api.setLogo({
        params: { id },
        body: { key: 'organizations/someone-else/logo-0a0a0a0a-0000-4000-8000-000000000000' },
      }),
    );
    expect(other).toMatchObject({ status: 400, message: MESSAGES.organizationLogoKey });
    const never = await apiRejection(
      api.setLogo({ params: { id }, body: { key: `organizations/${id}/logo-0a0a0a0a-0000-4000-8000-000000000000` } }),
    );
    expect(never).toMatchObject({ status: 400, message: MESSAGES.organizationLogoMissing });
  });
});
