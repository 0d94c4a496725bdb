import { MESSAGES } from '../../../shared/messages';
import { DELETION_DELAY_MS } from '../../../shared/users/constants';
import { accountWorld } from '../../../test/support/account-memory';
import { callerOf } from '../../../test/support/callers';
import { rejectionOf } from '../../../test/support/rejection';
import { BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable } from '../../_shared/errors';
import { createAccount } from './account-deletion';
import { createInvites } from './invites';

const staff = callerOf('boss', ['Employees']);
const admin = callerOf('root', ['Administrators']);
const DAY = 24 * 60 * 60 * 1000;

const setUp = () => {
  const world = accountWorld();
  return { world, account: createAccount(world.accountDeps), invites: createInvites(world.invitesDeps) };
};

describe('queueing a deletion', () => {
  it('records who asked and when, disables the person at once and e-mails them "within 2 to 4 weeks"', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const queued = await account.queue(callerOf('ann'), 'ann');
    expect(queued.metadata?.deletionQueued).toEqual({
      time: world.now(),
      selfRequested: true,
      requester: 'ann',
      history: [],
    });
    expect(world.users.get('ann')?.metadata?.deletionQueued?.time).toBe(world.now());
    expect(world.sessions.get('ann')?.disabled).toBe(true);
    expect(world.identity.get('ann')?.enabled).toBe(false);
    expect(world.mail).toEqual([
      { to: ['ann@example.test'], subject: MESSAGES.deletionEmailSubject, text: MESSAGES.deletionEmailText },
    ]);
    expect(world.mail[0]?.text).toContain('within 2 to 4 weeks');
  });

  it('staff may queue anyone (not self-requested); others only themselves', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    world.addPerson('bob');
    const error = await rejectionOf(account.queue(callerOf('bob'), 'ann'));
    expect(error).toBeInstanceOf(Forbidden);
    expect(error.message).toBe(MESSAGES.selfOrStaffOnly);
    const queued = await account.queue(staff, 'ann');
    expect(queued.metadata?.deletionQueued).toMatchObject({ selfRequested: false, requester: 'boss' });
  });

  it('needs the metadata (400, the exact message); a second queue is a 409; a missing person a 404', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const { metadata: _m, ...bare } = world.users.get('ann')!;
    world.users.set('ann', bare);
    const noMetadata = await rejectionOf(account.queue(callerOf('ann'), 'ann'));
    expect(noMetadata).toBeInstanceOf(BadRequest);
    expect(noMetadata.message).toBe('No custom metadata found for this user account.');
    expect(world.sessions.get('ann')?.disabled).toBeUndefined();

    world.addPerson('bob');
    await account.queue(callerOf('bob'), 'bob');
    const again = await rejectionOf(account.queue(staff, 'bob'));
    expect(again).toBeInstanceOf(Conflict);
    expect(again.message).toBe(MESSAGES.deletionAlreadyQueued);
    expect(world.mail).toHaveLength(1);

    expect(await rejectionOf(account.queue(staff, 'nobody'))).toBeInstanceOf(NotFound);
  });

  it('is all or nothing: when the e-mail cannot be sent the record, the session and the identity are as before', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const before = structuredClone(world.users.get('ann'));
    world.fail('mailer.send');
    const error = await rejectionOf(account.queue(callerOf('ann'), 'ann'));
    expect(error).toBeInstanceOf(ServiceUnavailable);
    const after = world.users.get('ann')!;
    expect(after.metadata).toEqual(before?.metadata);
    expect(world.sessions.get('ann')?.disabled).toBe(false);
    expect(world.identity.get('ann')?.enabled).toBe(true);
    // A retry then works.
    await account.queue(callerOf('ann'), 'ann');
    expect(world.mail).toHaveLength(1);
  });
});

describe('unqueueing a deletion (staff)', () => {
  it('moves the queue data into history with unqueuedBy, clears time, selfRequested, requester, enables the person', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const queuedAt = world.now();
    await account.queue(callerOf('ann'), 'ann');
    world.advance(DAY);
    const record = await account.updateRecord(staff, 'ann', { deletion: 'unqueue' });
    expect(record.metadata?.deletionQueued).toEqual({
      history: [
        { time: queuedAt, selfRequested: true, requester: 'ann', unqueuedBy: { requester: 'boss', time: world.now() } },
      ],
    });
    expect(world.sessions.get('ann')?.disabled).toBe(false);
    expect(world.identity.get('ann')?.enabled).toBe(true);

    // Queued again later, the history is kept.
    world.advance(DAY);
    const again = await account.queue(staff, 'ann');
    expect(again.metadata?.deletionQueued?.history).toHaveLength(1);
    expect(again.metadata?.deletionQueued).toMatchObject({ selfRequested: false, requester: 'boss' });
  });

  it('without a queue: 400 with the exact message; only staff may unqueue', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const none = await rejectionOf(account.updateRecord(staff, 'ann', { deletion: 'unqueue' }));
    expect(none).toBeInstanceOf(BadRequest);
    expect(none.message).toBe('No deletion queue found for this user account.');
    await account.queue(staff, 'ann');
    const self = await rejectionOf(account.updateRecord(callerOf('ann'), 'ann', { deletion: 'unqueue' }));
    expect(self).toBeInstanceOf(Forbidden);
    expect(self.message).toBe(MESSAGES.unqueueStaffOnly);
  });
});

describe('changing the record', () => {
  it('sets the display name, the cart and the cache time (self or staff)', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const cart = [{ productId: 'tier-1', deviceId: 'dev-1', quantity: 1 }];
    const record = await account.updateRecord(callerOf('ann'), 'ann', {
      displayName: 'Ann',
      cartItems: cart,
      localCacheTime: 5,
    });
    expect(record).toMatchObject({ displayName: 'Ann', cartItems: cart, localCacheTime: 5 });
    expect(world.users.get('ann')).toMatchObject({ displayName: 'Ann', cartItems: cart });
    expect(await rejectionOf(account.updateRecord(callerOf('bob'), 'ann', { displayName: 'x' }))).toBeInstanceOf(
      Forbidden,
    );
    await account.updateRecord(staff, 'ann', { displayName: '' });
    expect(world.users.get('ann')?.displayName).toBeUndefined();
  });

  it('refuses a second item with the same productId and deviceId (spec §5: "Item already in cart")', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const error = await rejectionOf(
      account.updateRecord(callerOf('ann'), 'ann', {
        cartItems: [
          { productId: 'tier-1', deviceId: 'dev-1', quantity: 1 },
          { productId: 'tier-2', deviceId: 'dev-1', quantity: 1 },
          { productId: 'tier-1', deviceId: 'dev-1', quantity: 3 },
        ],
      }),
    );
    // The same answer as a second item added alone (addCartItem), and logged the same way.
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe('Item already in cart');
    expect(world.logged).toContainEqual({
      level: 'warn',
      message: 'Item already in cart',
      fields: expect.objectContaining({ id: 'ann', productId: 'tier-1', deviceId: 'dev-1' }),
    });
    expect(world.users.get('ann')?.cartItems).toEqual([]);
  });

  it('adds, changes and removes one cart item at a time, answering the cart; a duplicate is a 409, logged', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    const item = { productId: 'prod_sd1_tier2', deviceId: 'dev-1', quantity: 1 };
    await expect(account.addCartItem(callerOf('ann'), 'ann', item)).resolves.toEqual({ items: [item] });
    world.logged.length = 0;
    const duplicate = await rejectionOf(account.addCartItem(callerOf('ann'), 'ann', { ...item, quantity: 2 }));
    expect(duplicate).toBeInstanceOf(Conflict);
    expect(duplicate.message).toBe('Item already in cart');
    expect(world.logged).toContainEqual({
      level: 'warn',
      message: 'Item already in cart',
      fields: expect.objectContaining({ id: 'ann', deviceId: 'dev-1' }),
    });
    await expect(account.setCartQuantity(staff, 'ann', item, 3)).resolves.toEqual({
      items: [{ ...item, quantity: 3 }],
    });
    expect(await rejectionOf(account.removeCartItem(callerOf('bob'), 'ann', item))).toBeInstanceOf(Forbidden);
    await expect(account.removeCartItem(callerOf('ann'), 'ann', item)).resolves.toEqual({ items: [] });
    expect(world.users.get('ann')?.cartItems).toEqual([]);
  });

  it('retries once when the record changed in between, then answers 409', async () => {
    const { world } = setUp();
    world.addPerson('ann');
    const save = world.accountDeps.users.save;
    let calls = 0;
    const racing = createAccount({
      ...world.accountDeps,
      users: {
        ...world.accountDeps.users,
        save: async (user, version) => {
          calls += 1;
          return calls === 1 ? false : save(user, version);
        },
      },
    });
    await racing.updateRecord(callerOf('ann'), 'ann', { displayName: 'Ann' });
    expect(calls).toBe(2);
    const losing = createAccount({
      ...world.accountDeps,
      users: { ...world.accountDeps.users, save: async () => false },
    });
    const error = await rejectionOf(losing.updateRecord(callerOf('ann'), 'ann', { displayName: 'Ann' }));
    expect(error).toBeInstanceOf(Conflict);
    expect(error.message).toBe(MESSAGES.recordChanged);
  });
});

/** A person with relations at both ends, invites sent and received, sign-in events and a cart. */
const populated = async () => {
  const set = setUp();
  const { world, invites } = set;
  world.addPerson('ann', 'ann@example.test');
  world.addPerson('bob', 'bob@example.test');
  world.users.get('ann')!.cartItems = [{ productId: 'p', deviceId: 'd', quantity: 1 }];
  world.relate('device-owner', 'dev-1', 'ann');
  world.relate('organization-manager', 'org-1', 'ann');
  world.relate('inviter-contact', 'bob', 'ann');
  world.relate('inviter-contact', 'ann', 'bob');
  const sent = await invites.create(callerOf('ann'), {
    type: 'inviter-contact',
    inviterId: 'ann',
    inviterName: 'Ann',
    invited: { email: 'carol@example.test' },
  });
  const received = await invites.create(callerOf('bob'), {
    type: 'inviter-contact',
    inviterId: 'bob',
    inviterName: 'Bob',
    invited: { email: 'ANN@example.test' },
  });
  world.events.length = 0;
  return { ...set, sent, received };
};

const remainsOf = (world: ReturnType<typeof accountWorld>, id: string, email: string) => ({
  user: world.users.has(id),
  identity: world.identity.has(id),
  relations: [...world.relations.values()].filter((r) => r.referrerId === id || r.referentId === id),
  invites: [...world.invites.values()].filter((i) => i.inviterId === id || i.invited.email.toLowerCase() === email),
  inviteRelations: [...world.relations.values()].filter(
    (r) => r.type === 'inviter-invite' && !world.invites.has(r.referentId),
  ),
  authEvents: world.authEvents.has(id),
  held: world.held.has(id),
  session: world.sessions.get(id),
});

describe('deleting an account', () => {
  it('leaves nothing behind but an expiring disabled session tombstone; the last manager goes too', async () => {
    const { world, account } = await populated();
    world.held.set('ann', 2);
    world.held.set('bob', 1);
    await account.deleteNow(admin, 'ann');
    expect(remainsOf(world, 'ann', 'ann@example.test')).toEqual({
      user: false,
      identity: false,
      relations: [],
      invites: [],
      inviteRelations: [],
      authEvents: false,
      held: false,
      session: { disabled: true, retiredAt: world.now(), version: 0 },
    });
    // Other areas' parts ran while Ann's relations still said where she was a recipient.
    expect(world.relationsWhenHeldWent.get('ann')).toBeGreaterThan(0);
    // Bob keeps everything of his own; his contact relation to Ann is gone and his access version raised.
    expect(world.users.has('bob')).toBe(true);
    expect(world.held.get('bob')).toBe(1);
    expect(world.bumps).toContain('bob');
    // The device-owner removal is notified, as the relations area would.
    expect(world.events).toEqual([
      expect.objectContaining({
        kind: 'relation.changed',
        change: 'removed',
        actorId: 'root',
        relation: expect.objectContaining({ type: 'device-owner', referentId: 'ann' }),
      }),
    ]);
  });

  it('is idempotent: a rerun after a failure part-way finishes the work', async () => {
    for (const step of [
      'holdings.removeAllOf',
      'table.remove',
      'authEvents.removeAll',
      'identity.deleteUser',
      'users.remove',
    ]) {
      const { world, account } = await populated();
      world.held.set('ann', 3);
      world.fail(step);
      await expect(account.deleteNow(admin, 'ann')).rejects.toThrow('(test)');
      // The record is removed last: it is still there to bring the work back.
      expect(world.users.has('ann')).toBe(true);
      await account.deleteNow(admin, 'ann');
      const left = remainsOf(world, 'ann', 'ann@example.test');
      expect({ step, ...left }).toMatchObject({ step, user: false, identity: false, relations: [], invites: [] });
      expect(left.inviteRelations).toEqual([]);
      expect(left.authEvents).toBe(false);
      expect(left.held).toBe(false);
    }
  });

  it('answers 404 for a person who exists nowhere', async () => {
    const { account } = setUp();
    expect(await rejectionOf(account.deleteNow(admin, 'nobody'))).toBeInstanceOf(NotFound);
  });
});

describe('the deletion job', () => {
  it('deletes the queued accounts that are due, not those queued less than two weeks ago or unqueued', async () => {
    const { world, account } = await populated();
    await account.queue(callerOf('ann'), 'ann');
    world.addPerson('dan');
    world.advance(DAY);
    await account.queue(staff, 'dan');
    await account.updateRecord(staff, 'dan', { deletion: 'unqueue' });
    world.addPerson('eve');
    world.advance(DELETION_DELAY_MS - 2 * DAY);
    await account.queue(callerOf('eve'), 'eve');

    expect(await account.runDueDeletions(world.now())).toEqual({ due: 0, deleted: [], failed: [] });
    const at = world.now() + 2 * DAY;
    expect(await account.runDueDeletions(at)).toEqual({ due: 1, deleted: ['ann'], failed: [] });
    expect(remainsOf(world, 'ann', 'ann@example.test')).toMatchObject({ user: false, relations: [], invites: [] });
    expect(world.sessions.get('ann')).toEqual({ disabled: true, retiredAt: at, version: 0 });
    expect(world.users.has('dan')).toBe(true);
    expect(world.users.has('eve')).toBe(true);
    // The event names who asked for the deletion.
    expect(world.events.at(-1)?.actorId).toBe('ann');
  });

  it('logs a failure on one person, goes on with the others, and retries the failed one next run', async () => {
    const { world, account } = setUp();
    world.addPerson('ann');
    world.addPerson('bob');
    await account.queue(callerOf('ann'), 'ann');
    await account.queue(callerOf('bob'), 'bob');
    const at = world.now() + DELETION_DELAY_MS;
    world.fail('authEvents.removeAll');
    const first = await account.runDueDeletions(at);
    expect(first).toEqual({ due: 2, deleted: ['bob'], failed: ['ann'] });
    expect(world.logged).toContainEqual(
      expect.objectContaining({ level: 'error', fields: expect.objectContaining({ id: 'ann' }) }),
    );
    expect(world.users.get('ann')?.metadata?.deletionQueued?.time).toBeDefined();
    expect(await account.runDueDeletions(at + 60 * 60 * 1000)).toEqual({ due: 1, deleted: ['ann'], failed: [] });
    expect(world.users.size).toBe(0);
  });
});
