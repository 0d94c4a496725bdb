import path from 'node:path';
import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { createRelationTable } from '../../../functions/_shared/relations/relation-table';
import { createInviteStore } from '../../../functions/users/store/invite-store';
import { startScheduler } from '../../../infra/local/scheduler';
import { MESSAGES } from '../../../shared/messages';
import { relationId } from '../../../shared/relations/relation-types';
import { mailsTo } from '../../support/mail';
import { type FreshUser, freshUser, signInFresh } from '../../support/people';
import { seedRelation } from '../../support/relations';
import {
  apiAs,
  apiRejection,
  cognitoClient,
  documentClient,
  stack,
  subOf,
  tokenOf,
  uniqueId,
} from '../../support/stack';
import { useStackEnvironment } from '../../support/stack-env';

/**
 * Spec §4 account deletion through the real gateway, identity provider, tables and SES; then the scheduled
 * deletion job run in this process (through the local scheduler) as EventBridge would run it, weeks ahead.
 */

const DAY = 24 * 60 * 60 * 1000;
const users = (token?: string) => apiAs('users', token);
const asEmployee = async () => users(await tokenOf('employee@example.com'));
const asAdmin = async () => users(await tokenOf('admin@example.com'));
const probe = (person: FreshUser, token = person.token) => users(token).getUserRecord({ params: { id: person.id } });

const identityOf = (person: FreshUser) =>
  cognitoClient().send(new AdminGetUserCommand({ UserPoolId: stack().auth.userPoolId, Username: person.email }));

describe('queueing and unqueueing a deletion', () => {
  it("queues (self): the person's token is refused at once, the sign-in disabled, the e-mail says 2 to 4 weeks", async () => {
    const person = await freshUser({ prefix: 'queue' });
    await expect(probe(person)).resolves.toMatchObject({ id: person.id });
    const before = Date.now();

    const record = await users(person.token).deleteUser({ params: { id: person.id } });
    expect(record.metadata?.deletionQueued).toMatchObject({
      selfRequested: true,
      requester: person.id,
      history: [],
    });
    expect(record.metadata?.deletionQueued?.time).toBeGreaterThanOrEqual(before);

    const refused = await apiRejection(probe(person));
    expect([refused.status, refused.message]).toEqual([401, MESSAGES.accountDisabled]);
    expect((await identityOf(person)).Enabled).toBe(false);
    const [mail] = await mailsTo(person.email, 1);
    expect(mail?.subject).toBe(MESSAGES.deletionEmailSubject);
    expect(mail?.body.text).toContain('within 2 to 4 weeks');

    // Queued already: staff asking again is a 409.
    const again = await apiRejection((await asEmployee()).deleteUser({ params: { id: person.id } }));
    expect([again.status, again.message]).toEqual([409, MESSAGES.deletionAlreadyQueued]);
  });

  it('unqueues (staff): history with unqueuedBy; time, selfRequested, requester cleared; the person enabled', async () => {
    const person = await freshUser({ prefix: 'unqueue' });
    const employee = await asEmployee();
    const employeeSub = await subOf('employee@example.com');
    const queued = await employee.deleteUser({ params: { id: person.id } });
    expect(queued.metadata?.deletionQueued).toMatchObject({ selfRequested: false, requester: employeeSub });

    // Only staff may unqueue (the person is disabled anyway; another person is refused too).
    const other = await freshUser({ prefix: 'other' });
    const notStaff = await apiRejection(
      users(other.token).updateUserRecord({ params: { id: person.id }, body: { deletion: 'unqueue' } }),
    );
    expect(notStaff.status).toBe(403);

    const before = Date.now();
    const record = await employee.updateUserRecord({ params: { id: person.id }, body: { deletion: 'unqueue' } });
    const history = record.metadata?.deletionQueued?.history ?? [];
    expect(record.metadata?.deletionQueued).toEqual({ history: [expect.any(Object)] });
    expect(history[0]).toEqual({
      time: queued.metadata?.deletionQueued?.time,
      selfRequested: false,
      requester: employeeSub,
      unqueuedBy: { requester: employeeSub, time: expect.any(Number) },
    });
    expect(history[0]?.unqueuedBy.time).toBeGreaterThanOrEqual(before);
    expect((await identityOf(person)).Enabled).toBe(true);
    await expect(probe(person)).resolves.toMatchObject({ id: person.id });
    await expect(signInFresh(person.email)).resolves.toEqual(expect.any(String));
  });

  it("answers the spec's two 400s exactly", async () => {
    const person = await freshUser({ prefix: 'no-queue' });
    const employee = await asEmployee();
    const noQueue = await apiRejection(
      employee.updateUserRecord({ params: { id: person.id }, body: { deletion: 'unqueue' } }),
    );
    expect([noQueue.status, noQueue.message]).toEqual([400, 'No deletion queue found for this user account.']);

    // A record without metadata (e.g. one written before metadata existed).
    await documentClient().send(
      new UpdateCommand({
        TableName: stack().tables.users,
        Key: { id: person.id },
        UpdateExpression: 'REMOVE metadata',
      }),
    );
    const noMetadata = await apiRejection(users(person.token).deleteUser({ params: { id: person.id } }));
    expect([noMetadata.status, noMetadata.message]).toEqual([400, 'No custom metadata found for this user account.']);
    await expect(probe(person)).resolves.toMatchObject({ id: person.id });
  });

  it('only the person or staff queue a deletion', async () => {
    const [person, other] = await Promise.all([freshUser({ prefix: 'target' }), freshUser({ prefix: 'other' })]);
    const refused = await apiRejection(users(other.token).deleteUser({ params: { id: person.id } }));
    expect([refused.status, refused.message]).toEqual([403, MESSAGES.selfOrStaffOnly]);
  });
});

describe('the record', () => {
  it('keeps one cart item per productId and deviceId ("Item already in cart")', async () => {
    const person = await freshUser({ prefix: 'cart' });
    const api = users(person.token);
    const item = { productId: 'tier-1', deviceId: 'demo-device-1', quantity: 1 };
    await expect(
      api.updateUserRecord({ params: { id: person.id }, body: { cartItems: [item], displayName: 'Cart Person' } }),
    ).resolves.toMatchObject({ cartItems: [item], displayName: 'Cart Person' });
    const duplicate = await apiRejection(
      api.updateUserRecord({ params: { id: person.id }, body: { cartItems: [item, { ...item, quantity: 2 }] } }),
    );
    // As the cart route answers a second item (test/integration/billing/cart.test.ts): one status for one rule.
    expect([duplicate.status, duplicate.message]).toEqual([409, 'Item already in cart']);
    expect((await probe(person)).cartItems).toEqual([item]);
  });
});

/** Everything the platform could hold of a person, read straight from the emulators. */
const remainsOf = async (person: FreshUser) => {
  const db = documentClient();
  const { tables } = stack();
  const relations = createRelationTable({ db, tableName: tables.relations! });
  const invites = createInviteStore({ db, tableName: tables.invites! });
  const identity = await identityOf(person).then(
    () => 'exists',
    (error: Error) => error.name,
  );
  const record = await db.send(new GetCommand({ TableName: tables.users, Key: { id: person.id } }));
  const authEvents = await db.send(
    new QueryCommand({
      TableName: tables.authEvents,
      KeyConditionExpression: 'userId = :id',
      ExpressionAttributeValues: { ':id': person.id },
    }),
  );
  const session = await db.send(new GetCommand({ TableName: tables.accessVersions, Key: { userId: person.id } }));
  return {
    identity,
    record: record.Item,
    byReferrer: (await relations.queryIndex('referrer', person.id, { limit: 100 })).items,
    byReferent: (await relations.queryIndex('referent', person.id, { limit: 100 })).items,
    invitesSent: (await invites.byInviter(person.id, {}, { limit: 100 })).items,
    invitesReceived: (await invites.byInvitedEmail(person.email, {}, { limit: 100 })).items,
    authEvents: authEvents.Items ?? [],
    session: session.Item,
  };
};

/** A person with relations at both ends, invites sent and received, a cart and sign-in events. */
const personWithEverything = async () => {
  const person = await freshUser({ prefix: 'doomed' });
  const friend = await freshUser({ prefix: 'friend' });
  const orgId = uniqueId('doomed-org');
  const deviceId = uniqueId('doomed-device');
  await seedRelation('organization-manager', orgId, person.id);
  await seedRelation('device-owner', deviceId, person.id);
  await seedRelation('inviter-contact', person.id, friend.id);
  await seedRelation('inviter-contact', friend.id, person.id);
  const api = users(person.token);
  const sent = await api.inviteUser({
    body: {
      type: 'organization-user',
      inviterId: person.id,
      inviterName: 'Doomed Person',
      invited: { email: `${uniqueId('invitee')}@example.com` },
      objectId: orgId,
    },
  });
  const received = await users(friend.token).inviteUser({
    body: { type: 'inviter-contact', inviterId: friend.id, inviterName: 'Friend', invited: { email: person.email } },
  });
  await api.updateUserRecord({
    params: { id: person.id },
    body: { cartItems: [{ productId: 'tier-2', deviceId, quantity: 1 }] },
  });
  const before = await remainsOf(person);
  // Everything is there to be deleted, including the sign-in event of freshUser's sign-in.
  expect(before.identity).toBe('exists');
  expect(before.record).toMatchObject({ cartItems: [expect.any(Object)] });
  expect(before.byReferrer.map((r) => r.type).sort()).toEqual(['inviter-contact', 'inviter-invite']);
  expect(before.byReferent.map((r) => r.type).sort()).toEqual([
    'device-owner',
    'inviter-contact',
    'organization-manager',
  ]);
  expect(before.invitesSent).toHaveLength(1);
  expect(before.invitesReceived).toHaveLength(1);
  expect(before.authEvents.length).toBeGreaterThan(0);
  return { person, friend, sent, received };
};

/** Nothing of the person remains but the session tombstone, which only refuses old tokens and expires. */
const expectNothingLeft = async ({ person, friend, received }: Awaited<ReturnType<typeof personWithEverything>>) => {
  const left = await remainsOf(person);
  const { session, ...rest } = left;
  expect(rest).toEqual({
    identity: 'UserNotFoundException',
    record: undefined,
    byReferrer: [],
    byReferent: [],
    invitesSent: [],
    invitesReceived: [],
    authEvents: [],
  });
  expect(session).toEqual({ userId: person.id, disabled: true, expiresAt: expect.any(Number) });
  // The friend's invite to the person went with its inviter-invite relation; the friend remains.
  const relations = createRelationTable({ db: documentClient(), tableName: stack().tables.relations! });
  expect(await relations.get(relationId('inviter-invite', friend.id, received.id))).toBeUndefined();
  await expect(probe(friend)).resolves.toMatchObject({ id: friend.id });
  // An old token of the person is refused.
  expect((await apiRejection(probe(person))).status).toBe(401);
};

describe('deleting an account leaves nothing behind', () => {
  it('the scheduled job deletes a queued account once it is due (weeks later), and not before', async () => {
    const restoreEnvironment = useStackEnvironment();
    // The job logs a line per run and per deletion, and the SQS client warns about the emulator's queue URL.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const scheduler = await startScheduler({ rootDir: path.resolve(import.meta.dirname, '../../..') });
    try {
      const everything = await personWithEverything();
      const { person } = everything;
      await users(person.token).deleteUser({ params: { id: person.id } });

      const early = (await scheduler.run('UsersDeletionJob', new Date(Date.now() + 13 * DAY))) as {
        deleted: string[];
      };
      expect(early.deleted).not.toContain(person.id);
      expect((await remainsOf(person)).record).toBeDefined();

      const due = (await scheduler.run('UsersDeletionJob', new Date(Date.now() + 15 * DAY))) as {
        deleted: string[];
        failed: string[];
      };
      expect(due.deleted).toContain(person.id);
      expect(due.failed).not.toContain(person.id);
      await expectNothingLeft(everything);
    } finally {
      await scheduler.stop();
      restoreEnvironment();
      jest.restoreAllMocks();
    }
  });

  it('adminDeleteUser deletes at once; a second call is a 404; only Administrators may', async () => {
    const everything = await personWithEverything();
    const { person } = everything;
    const byEmployee = await apiRejection((await asEmployee()).adminDeleteUser({ params: { id: person.id } }));
    expect(byEmployee.status).toBe(403);
    await expect((await asAdmin()).adminDeleteUser({ params: { id: person.id } })).resolves.toBeUndefined();
    await expectNothingLeft(everything);
    const again = await apiRejection((await asAdmin()).adminDeleteUser({ params: { id: person.id } }));
    expect([again.status, again.message]).toEqual([404, MESSAGES.userMissing(person.id)]);
  });
});
