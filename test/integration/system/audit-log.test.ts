import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createAuditLogStore } from '../../../functions/_shared/audit/audit-log-store';
import type { AuditRecord } from '../../../functions/_shared/audit/audit-trail';
import { AUDIT_RETENTION_MS } from '../../../shared/audit/audit-entry';
import { relationId } from '../../../shared/relations/relation-types';
import { auditEntries, auditEntry, momentBefore } from '../../support/audit';
import { freshSerial } from '../../support/authz-devices-fixtures';
import { buyTier } from '../../support/billing';
import { mailsTo } from '../../support/mail';
import { seedBanner } from '../../support/notifications';
import { freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, areaUrl, documentClient, stack, subOf, tokenOf, uniqueId } from '../../support/stack';

/**
 * The audit log through the gateway (docs/audit.md): per category of staff action, the entry appears with the right
 * actor, target, before and after; a call that is not a staff action leaves none; only Administrators search it, and
 * no route changes or removes an entry.
 */
const admin = async () => ({
  id: await subOf('admin@example.com'),
  token: await tokenOf('admin@example.com'),
});
const employee = async () => ({
  id: await subOf('employee@example.com'),
  token: await tokenOf('employee@example.com'),
});

describe('audit log: staff actions on people', () => {
  it("records a group change with the administrator, the person, and the person's groups before and after", async () => {
    const person = await freshUser({ prefix: 'audit-group' });
    const { id: adminId, token } = await admin();
    const from = momentBefore();
    await apiAs('users', token).addUserToGroup({ params: { id: person.id, group: 'Approved_users', actor: adminId } });
    await apiAs('users', token).removeUserFromGroup({
      params: { id: person.id, group: 'Approved_users', actor: adminId },
    });

    const added = await auditEntry('user.group.add', person.id, from);
    expect(added).toMatchObject({
      area: 'users',
      route: 'addUserToGroup',
      method: 'GET',
      actor: { id: adminId, email: 'admin@example.com', groups: ['Administrators'] },
      target: { kind: 'user', id: person.id, label: person.email },
      before: { groups: [] },
      after: { groups: ['Approved_users'] },
      outcome: 'succeeded',
      status: 200,
      change: { params: { id: person.id, group: 'Approved_users', actor: adminId } },
    });
    expect(added.time).toBeGreaterThanOrEqual(from);
    expect(added.finishedAt).toBeGreaterThanOrEqual(added.time);
    const removed = await auditEntry('user.group.remove', person.id, from);
    expect(removed).toMatchObject({ before: { groups: ['Approved_users'] }, after: { groups: [] } });
    // Newest first.
    expect((await auditEntries({ target: person.id, from })).map((entry) => entry.action)).toEqual([
      'user.group.remove',
      'user.group.add',
    ]);
  });

  it('records a refused attempt too: an Employee may not grant Administrators', async () => {
    const person = await freshUser({ prefix: 'audit-refused' });
    const { id, token } = await employee();
    const from = momentBefore();
    const refused = await apiRejection(
      apiAs('users', token).addUserToGroup({ params: { id: person.id, group: 'Administrators', actor: id } }),
    );
    expect(refused.status).toBe(403);
    expect(await auditEntry('user.group.add', person.id, from)).toMatchObject({
      actor: { id, email: 'employee@example.com' },
      outcome: 'failed',
      status: 403,
      error: refused.message,
    });
  });

  it('records disable and enable, password resets and the global sign-out, and never a password', async () => {
    const person = await freshUser({ prefix: 'audit-account' });
    const { id, token } = await employee();
    const users = apiAs('users', token);
    const from = momentBefore();
    await users.disableUser({ params: { id: person.id } });
    await users.enableUser({ params: { id: person.id } });
    await users.forceResetPassword({ params: { id: person.id } });
    await users.adminUserGlobalSignOut({ params: { id: person.id } });

    expect(await auditEntry('user.disable', person.id, from)).toMatchObject({
      actor: { id },
      before: { enabled: true },
      after: { enabled: false },
    });
    expect(await auditEntry('user.enable', person.id, from)).toMatchObject({
      before: { enabled: false },
      after: { enabled: true },
    });
    const reset = await auditEntry('user.password.force-reset', person.id, from);
    expect(reset).toMatchObject({ before: { status: 'CONFIRMED' }, after: { status: 'FORCE_CHANGE_PASSWORD' } });
    const [mail] = await mailsTo(person.email);
    const temporary = /\n\n(\S+)\n\n/.exec(mail!.body.text ?? '')![1]!;
    expect(JSON.stringify(await auditEntries({ target: person.id, from }))).not.toContain(temporary);
    const signOut = await auditEntry('user.sign-out', person.id, from);
    expect(signOut.after).toEqual({ signedOutEverywhereAt: expect.any(Number) });
  });

  it('records the deletion queue, its cancellation and a deletion now, each with the record before', async () => {
    const person = await freshUser({ prefix: 'audit-deletion' });
    const { token } = await admin();
    const users = apiAs('users', token);
    const from = momentBefore();
    await users.deleteUser({ params: { id: person.id } });
    await users.updateUserRecord({ params: { id: person.id }, body: { deletion: 'unqueue' } });
    await users.adminDeleteUser({ params: { id: person.id } });

    const queued = await auditEntry('user.deletion.queue', person.id, from);
    expect((queued.before as { metadata: { deletionQueued?: unknown } }).metadata.deletionQueued).toBeUndefined();
    expect(queued.after).toMatchObject({
      metadata: { deletionQueued: { selfRequested: false, time: expect.any(Number) } },
    });
    const unqueued = await auditEntry('user.deletion.unqueue', person.id, from);
    expect(unqueued.before).toMatchObject({ metadata: { deletionQueued: { time: expect.any(Number) } } });
    expect(unqueued.after).toMatchObject({
      metadata: { deletionQueued: { history: [{ unqueuedBy: expect.any(Object) }] } },
    });
    const deleted = await auditEntry('user.delete', person.id, from);
    expect(deleted).toMatchObject({ before: { id: person.id, metadata: { email: person.email } }, status: 204 });
    expect(deleted.after).toBeUndefined();
  });

  it("does not record a person's changes to their own account, staff's included, but records staff changing another's", async () => {
    const person = await freshUser({ prefix: 'audit-own' });
    const staff = await freshUser({ prefix: 'audit-own-staff', groups: ['Employees'] });
    const from = momentBefore();
    await apiAs('users', person.token).updateUser({ params: { id: person.id }, body: { givenName: 'Own' } });
    await apiAs('users', staff.token).updateUser({ params: { id: staff.id }, body: { givenName: 'Mine' } });
    expect(await auditEntries({ target: person.id, from })).toEqual([]);
    expect(await auditEntries({ target: staff.id, from })).toEqual([]);

    await apiAs('users', staff.token).updateUser({ params: { id: person.id }, body: { givenName: 'Renamed' } });
    expect(await auditEntry('user.names.update', person.id, from)).toMatchObject({
      actor: { id: staff.id, email: staff.email, groups: ['Employees'] },
      before: { givenName: 'Own' },
      after: { givenName: 'Renamed' },
    });
  });

  it('records an invite by staff into an organization, and not one to be their own contact', async () => {
    const { id, token } = await admin();
    const organization = await apiAs('organizations', token).create({ body: { name: uniqueId('Audit Org') } });
    const from = momentBefore();
    const invite = await apiAs('users', token).inviteUser({
      body: {
        type: 'organization-user',
        inviterId: id,
        inviterName: 'Admin',
        invited: { email: `${uniqueId('audit-invited')}@example.com` },
        objectId: organization.id,
      },
    });
    const contact = await apiAs('users', token).inviteUser({
      body: {
        type: 'inviter-contact',
        inviterId: id,
        inviterName: 'Admin',
        invited: { email: `${uniqueId('audit-contact')}@example.com` },
      },
    });
    expect(await auditEntry('invite.create', invite.id, from)).toMatchObject({ after: { objectId: organization.id } });
    expect(await auditEntries({ target: contact.id, from })).toEqual([]);
  });
});

describe('audit log: settings', () => {
  it('records a system parameter created, changed and deleted, with its value before and after', async () => {
    const { token } = await admin();
    const system = apiAs('system', token);
    const id = uniqueId('audit-param');
    const from = momentBefore();
    await system.createParameter({ body: { id, value: { on: false } } });
    await system.updateParameter({ params: { id }, body: { value: { on: true } } });
    await system.deleteParameter({ params: { id } });

    expect(await auditEntry('parameter.create', id, from)).toMatchObject({ after: { id, value: { on: false } } });
    const updated = await auditEntry('parameter.update', id, from);
    expect(updated).toMatchObject({ before: { id, value: { on: false } }, after: { id, value: { on: true } } });
    const deleted = await auditEntry('parameter.delete', id, from);
    expect(deleted).toMatchObject({ before: { value: { on: true } }, status: 204 });
    expect(deleted.after).toBeUndefined();
  });

  it('records the tier-features table saved, before and after in one shape', async () => {
    const { token } = await admin();
    const system = apiAs('system', token);
    const current = await system.getTierFeatures({});
    const table = Object.fromEntries(
      current.productLines.map((line) => [
        line.productLine,
        Object.fromEntries(line.tiers.map((tier) => [tier.tier, tier.features])),
      ]),
    );
    const from = momentBefore();
    await system.putTierFeatures({ body: table as never });
    const entry = await auditEntry('tier-features.update', 'tier-features', from);
    expect(entry.after).toEqual(table);
    expect(entry.target).toMatchObject({ kind: 'parameter', id: 'tier-features' });
  });

  it('records a migrations run by an Administrator', async () => {
    const { id, token } = await admin();
    const from = momentBefore();
    await apiAs('migrate', token).runMigrations({});
    expect(await auditEntry('migrations.run', 'pending', from)).toMatchObject({
      actor: { id },
      after: { finished: [], more: false },
    });
  });
});

describe('audit log: relations, devices, notifications and billing changed by staff', () => {
  it("records a relation staff create and delete on someone's device, not one its owner creates", async () => {
    const owner = await freshUser({ prefix: 'audit-rel-owner' });
    const member = await freshUser({ prefix: 'audit-rel-member' });
    const device = await freshDevice({ ownerToken: owner.token });
    const { id: staffId, token } = await employee();
    const from = momentBefore();
    const byOwner = await apiAs('relations', owner.token).create({
      body: { type: 'device-user', referrerId: device.id, referentId: member.id },
    });
    expect(await auditEntries({ target: byOwner.id, from })).toEqual([]);

    const third = await freshUser({ prefix: 'audit-rel-third' });
    const byStaff = await apiAs('relations', token).create({
      body: { type: 'device-administrator', referrerId: device.id, referentId: third.id },
    });
    await apiAs('relations', token).delete({ params: { id: byOwner.id } });
    expect(byStaff.id).toBe(relationId('device-administrator', device.id, third.id));
    expect(await auditEntry('relation.create', byStaff.id, from)).toMatchObject({
      actor: { id: staffId },
      after: { type: 'device-administrator', referrerId: device.id, referentId: third.id, createdBy: staffId },
    });
    const deleted = await auditEntry('relation.delete', byOwner.id, from);
    expect(deleted.before).toMatchObject({ id: byOwner.id, type: 'device-user', referentId: member.id });
  });

  it('records a device registered, its credential made and its ownership moved, with no claim code or secret', async () => {
    const { token } = await admin();
    const devices = apiAs('devices', token);
    const from = momentBefore();
    const { device, claimCode } = await devices.register({
      body: { serial: freshSerial('AU'), productLine: 'al30', model: 'AL30', firmwareVersion: '1.0.0' },
    });
    const credential = await devices.createCredential({ params: { id: device.id } });
    const registered = await auditEntry('device.register', device.id, from);
    expect(registered.after).toMatchObject({ device: { id: device.id }, claimCode: '[redacted]' });
    const made = await auditEntry('device.credential.create', device.id, from);
    expect(made.after).toMatchObject({
      credentialId: credential.credentialId,
      secret: '[redacted]',
      token: '[redacted]',
    });
    const text = JSON.stringify(await auditEntries({ target: device.id, from }));
    for (const secret of [claimCode, credential.secret, credential.token]) expect(text).not.toContain(secret);

    const first = await freshUser({ prefix: 'audit-transfer-a' });
    const second = await freshUser({ prefix: 'audit-transfer-b' });
    const owned = await freshDevice({ ownerToken: first.token });
    const moved = momentBefore();
    await devices.transfer({ params: { id: owned.id }, body: { newOwnerId: second.id } });
    expect(await auditEntry('device.transfer', owned.id, moved)).toMatchObject({
      before: { ownerId: first.id },
      after: { ownerId: second.id },
    });
  });

  it('records a notification written, changed and deleted by staff; a banner marked read by its reader is not', async () => {
    const { token } = await employee();
    const notifications = apiAs('notifications', token);
    const from = momentBefore();
    const draft = await notifications.createNotification({
      body: { methods: ['banner'], audience: ['role:roleName=administrator'], title: 'Audit draft', body: '<p>Hi</p>' },
    });
    await notifications.updateNotification({ params: { id: draft.id }, body: { title: 'Audit draft, edited' } });
    await notifications.deleteNotification({ params: { id: draft.id } });
    expect(await auditEntry('notification.create', draft.id, from)).toMatchObject({ after: { title: 'Audit draft' } });
    expect(await auditEntry('notification.update', draft.id, from)).toMatchObject({
      before: { title: 'Audit draft' },
      after: { title: 'Audit draft, edited' },
    });
    expect(await auditEntry('notification.delete', draft.id, from)).toMatchObject({ before: { status: 'created' } });
    expect((await auditEntries({ target: draft.id, from })).map((entry) => entry.action)).toEqual([
      'notification.delete',
      'notification.update',
      'notification.create',
    ]);

    const banner = await seedBanner(await subOf('employee@example.com'), 'Audit banner');
    await notifications.updateNotification({ params: { id: banner }, body: { read: true } });
    expect(await auditEntries({ target: banner, from })).toEqual([]);
  });

  it("records staff cancelling a person's subscription (a billing override), and not the owner resuming it", async () => {
    const person = await freshUser({ prefix: 'audit-billing' });
    const device = await freshDevice({ productLine: 'sd1', ownerToken: person.token });
    await buyTier(person, device.id, 'prod_sd1_tier1');
    const { id, token } = await admin();
    const from = momentBefore();
    await apiAs('api', token).subscriptionsCancel({ body: { deviceId: device.id } });
    await apiAs('api', person.token).subscriptionsResume({ body: { deviceId: device.id } });
    const entries = await auditEntries({ target: device.id, from });
    expect(entries.map((entry) => entry.action)).toEqual(['subscription.cancel']);
    expect(entries[0]).toMatchObject({
      actor: { id },
      target: { kind: 'device', id: device.id },
      before: { cancelAtPeriodEnd: false, productId: 'prod_sd1_tier1' },
      after: { cancelAtPeriodEnd: true, productId: 'prod_sd1_tier1' },
    });
  });
});

describe('audit log: the search and its guarantees', () => {
  it('finds by actor, target, action and time, newest first, in pages', async () => {
    const staff = await freshUser({ prefix: 'audit-search', groups: ['Administrators'] });
    const system = apiAs('system', staff.token);
    const ids = [uniqueId('audit-s1'), uniqueId('audit-s2'), uniqueId('audit-s3')];
    const from = momentBefore();
    for (const id of ids) await system.createParameter({ body: { id, value: 1 } });
    const middle = Date.now();
    await system.deleteParameter({ params: { id: ids[0]! } });

    const mine = await auditEntries({ actor: staff.id, from });
    expect(mine.map((entry) => `${entry.action} ${entry.target.id}`)).toEqual([
      `parameter.delete ${ids[0]}`,
      `parameter.create ${ids[2]}`,
      `parameter.create ${ids[1]}`,
      `parameter.create ${ids[0]}`,
    ]);
    expect(mine.every((entry) => entry.actor.email === staff.email)).toBe(true);
    expect((await auditEntries({ actor: staff.id, action: 'parameter.delete', from })).length).toBe(1);
    expect((await auditEntries({ actor: staff.id, from, to: middle })).length).toBe(3);
    expect((await auditEntries({ target: ids[1]!, targetKind: 'user', from })).length).toBe(0);

    const firstPage = await system.searchAudit({ body: { actor: staff.id, from }, query: { limit: 3 } });
    expect(firstPage.items).toHaveLength(3);
    const second = await system.searchAudit({
      body: { actor: staff.id, from },
      query: { limit: 3, cursor: firstPage.nextCursor! },
    });
    expect(second.items.map((entry) => entry.target.id)).toEqual([ids[0]]);
  });

  it('is for Administrators only; a bad search is a 400 naming the field', async () => {
    const search = { body: {}, query: { limit: 5 } };
    expect((await apiRejection(apiAs('system', (await employee()).token).searchAudit(search))).status).toBe(403);
    expect((await apiRejection(apiAs('system', await tokenOf('user@example.com')).searchAudit(search))).status).toBe(
      403,
    );
    expect((await apiRejection(apiAs('system').searchAudit(search))).status).toBe(401);
    const bad = await apiRejection(
      apiAs('system', (await admin()).token).searchAudit({ body: { from: 10, to: 5 }, query: { limit: 5 } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.issues?.[0]?.path).toBe('body.to');
  });

  it('has no route that changes or removes an entry', async () => {
    const { token } = await admin();
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${areaUrl('system')}/audit`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect([method, response.status]).toEqual([method, 405]);
    }
  });

  it('stores each record once, with its retention, and refuses to write over it', async () => {
    const { id, token } = await admin();
    const parameter = uniqueId('audit-store');
    const from = momentBefore();
    await apiAs('system', token).createParameter({ body: { id: parameter, value: 1 } });
    const entry = await auditEntry('parameter.create', parameter, from);
    const db = documentClient();
    const { tables } = stack();
    const month = new Date(entry.time).toISOString().slice(0, 7);
    const at = `${String(entry.time).padStart(13, '0')}#${entry.id}#o`;
    const { Item } = await db.send(new GetCommand({ TableName: tables.auditLog!, Key: { month, at } }));
    expect(Item).toMatchObject({ actorId: id, targetId: parameter, action: 'parameter.create' });
    expect(Item!.expiresAt).toBe(Math.floor((entry.time + AUDIT_RETENTION_MS) / 1000));

    const writer = createAuditLogStore({ db, tableName: tables.auditLog!, usersTable: tables.users! });
    const forged: AuditRecord = {
      phase: 'outcome',
      id: entry.id,
      time: entry.time,
      action: 'parameter.create',
      label: 'Created a system parameter',
      area: 'system',
      route: 'createParameter',
      method: 'POST',
      path: '/parameter',
      actor: { id: 'someone-else', groups: [] },
      target: { kind: 'parameter', id: parameter },
      change: {},
      outcome: 'failed',
    };
    await expect(writer.append(forged)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect((await auditEntry('parameter.create', parameter, from)).actor.id).toBe(id);
  });
});
