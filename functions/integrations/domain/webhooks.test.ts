import type { Caller } from '../../../shared/auth/verify-token';
import { MESSAGES } from '../../../shared/messages';
import { clearBox, memoryDeliveries, memoryWebhooks } from '../../../test/support/integrations-memory';
import { silentLog } from '../../../test/support/log';
import type { Access } from '../../_shared/access/access';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../_shared/errors';
import { MAX_WEBHOOKS_PER_TARGET } from '../../_shared/integrations/webhook-directory';
import { PREVIOUS_SECRET_MS } from './webhook-rules';
import { createWebhooks } from './webhooks';

const T0 = Date.UTC(2026, 3, 1, 12);
const caller = (sub: string, groups: string[] = []) => ({ sub, groups }) as unknown as Caller;
const owner = caller('owner');
const stranger = caller('stranger');

/** The access module's answer: `owner` manages device d1 and organization o1; staff manage everything. */
const access = {
  forCaller: (who: Caller | undefined) => ({
    check: async (kind: string, id: string) => ({
      allowed:
        (who?.groups ?? []).includes('Administrators') ||
        (who?.sub === 'owner' && ((kind === 'device' && id === 'd1') || (kind === 'organization' && id === 'o1'))),
    }),
  }),
} as unknown as Access;

const world = () => {
  const webhooks = memoryWebhooks();
  const deliveries = memoryDeliveries();
  const woken: { webhookId: string; immediately?: boolean }[] = [];
  let n = 0;
  let secrets = 0;
  const watched: string[] = [];
  const use = createWebhooks({
    store: webhooks.store,
    deliveries: deliveries.store,
    outbox: {
      append: async (webhookId, events) => deliveries.append(webhookId, events, T0),
      wake: async (webhookId, options) => {
        woken.push({ webhookId, ...options });
        return true;
      },
    },
    secrets: clearBox,
    targets: { exists: async (kind, id) => ['device:d1', 'organization:o1', 'device:d9'].includes(`${kind}:${id}`) },
    presence: {
      changed: async (kind, id) => {
        watched.push(`${kind}:${id}`);
      },
    },
    access,
    policy: 'public',
    now: () => T0,
    newId: () => `wh_${String(++n).padStart(20, '0')}`,
    newSecret: () => `whsec_${'A'.repeat(30)}${String(++secrets).padStart(2, '0')}`,
    log: silentLog,
  });
  return { use, webhooks, deliveries, woken, watched };
};

const add = (w: ReturnType<typeof world>, overrides: Record<string, unknown> = {}) =>
  w.use.create(owner, {
    url: 'https://hooks.example.com/in',
    events: ['readings.received'],
    target: { kind: 'device', id: 'd1' },
    description: '',
    ...overrides,
  } as never);

describe('webhooks', () => {
  it('answers the secret once, on creation; keeps it sealed; never shows it again', async () => {
    const w = world();
    const made = await add(w);
    expect(made.secret).toMatch(/^whsec_/);
    expect(w.webhooks.byId.get(made.id)!.secret).toBe(`clear:${made.id}:${made.secret}`);
    const read = await w.use.get(owner, made.id);
    expect(read).not.toHaveProperty('secret');
    expect(read).toMatchObject({ status: 'enabled', target: { kind: 'device', id: 'd1' }, waiting: 0 });
  });

  it('is made, read and listed only by who manages the target (or staff)', async () => {
    const w = world();
    await expect(add(w, { target: { kind: 'device', id: 'd2' } })).rejects.toEqual(
      new Forbidden(MESSAGES.webhookManagerRequired('device')),
    );
    const made = await add(w);
    await expect(w.use.get(stranger, made.id)).rejects.toBeInstanceOf(Forbidden);
    await expect(w.use.deliveries(stranger, made.id, { limit: 5 })).rejects.toBeInstanceOf(Forbidden);
    await expect(w.use.list(stranger, 'device', 'd1', { limit: 5 })).rejects.toBeInstanceOf(Forbidden);
    const staff = caller('admin', ['Administrators']);
    expect((await w.use.list(staff, 'device', 'd1', { limit: 5 })).items.map((h) => h.id)).toEqual([made.id]);
    await expect(w.use.get(owner, 'wh_00000000000000000099')).rejects.toBeInstanceOf(NotFound);
  });

  it('refuses a bad address naming the field, a target that does not exist, and more than the limit', async () => {
    const w = world();
    const refused = await add(w, { url: 'http://hooks.example.com/in' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequest);
    expect((refused as BadRequest).issues).toEqual([{ path: 'body.url', message: MESSAGES.webhookUrlHttpsOnly }]);
    const staff = caller('admin', ['Administrators']);
    await expect(
      w.use.create(staff, {
        url: 'https://x.example/',
        events: ['export.ready'],
        target: { kind: 'device', id: 'nope' },
        description: '',
      }),
    ).rejects.toBeInstanceOf(NotFound);
    for (let i = 0; i < MAX_WEBHOOKS_PER_TARGET; i++) await add(w);
    await expect(add(w)).rejects.toEqual(new Conflict(MESSAGES.webhookLimit(MAX_WEBHOOKS_PER_TARGET)));
  });

  it('turned off by its owner, then on: the head waiting is made due and the lane woken at once', async () => {
    const w = world();
    const made = await add(w);
    const off = await w.use.update(owner, made.id, { enabled: false });
    expect(off).toMatchObject({ status: 'disabled', disabledReason: 'owner', disabledAt: T0 });
    // The lane parked a delivery meanwhile.
    await w.deliveries.store.acquire(made.id, 'worker', T0, T0 + 1);
    await w.deliveries.store.changeLane(made.id, 'worker', { head: 'd#1' });
    await w.deliveries.store.createDelivery({
      id: 'msg_x',
      webhookId: made.id,
      sk: 'd#1',
      kind: 'event',
      eventId: 'e',
      eventType: 'readings.received',
      status: 'waiting',
      attempts: [],
      attemptCount: 3,
      bytes: 2,
      body: new Uint8Array(),
      created: T0,
      expiresAt: T0 + 1e9,
      entries: [],
    });
    const on = await w.use.update(owner, made.id, { enabled: true });
    expect(on).toMatchObject({ status: 'enabled' });
    expect(on).not.toHaveProperty('disabledReason');
    expect(await w.deliveries.store.getDelivery(made.id, 'd#1')).toMatchObject({
      status: 'pending',
      nextAttemptAt: T0,
    });
    expect(w.woken.at(-1)).toEqual({ webhookId: made.id, immediately: true });
  });

  it('tells the alerts area when a webhook starts or stops taking presence: made, events changed, off, on, deleted', async () => {
    const w = world();
    const plain = await add(w);
    await w.use.update(owner, plain.id, { description: 'no presence' });
    expect(w.watched).toEqual([]);
    const watching = await add(w, { events: ['device.offline'], target: { kind: 'organization', id: 'o1' } });
    expect(w.watched).toEqual(['organization:o1']);
    await w.use.update(owner, watching.id, { events: ['device.offline', 'device.online'] });
    expect(w.watched).toHaveLength(1);
    await w.use.update(owner, watching.id, { enabled: false });
    await w.use.update(owner, watching.id, { enabled: true });
    await w.use.update(owner, plain.id, { events: ['device.online'] });
    await w.use.update(owner, plain.id, { events: ['readings.received'] });
    await w.use.remove(owner, watching.id);
    expect(w.watched).toEqual([
      'organization:o1',
      'organization:o1',
      'organization:o1',
      'device:d1',
      'device:d1',
      'organization:o1',
    ]);
  });

  it('rotates the secret: a new one answered once, the previous one signing for a day', async () => {
    const w = world();
    const made = await add(w);
    const rotated = await w.use.rotateSecret(owner, made.id);
    expect(rotated.secret).not.toBe(made.secret);
    expect(rotated.previousSecretUntil).toBe(T0 + PREVIOUS_SECRET_MS);
    expect(w.webhooks.byId.get(made.id)).toMatchObject({
      secret: `clear:${made.id}:${rotated.secret}`,
      previousSecret: `clear:${made.id}:${made.secret}`,
    });
  });

  it('sends a test as a ping waiting first in the lane, woken at once', async () => {
    const w = world();
    const made = await add(w);
    const { eventId } = await w.use.test(owner, made.id);
    const [waiting] = await w.deliveries.store.firstQueued(made.id, 't#', 5);
    expect(waiting).toMatchObject({ id: eventId, type: 'ping', data: { webhookId: made.id } });
    expect(w.woken).toEqual([{ webhookId: made.id, immediately: true }]);
  });

  it('replays a delivery of an enabled webhook; refuses one of a webhook that is off, and an unknown one', async () => {
    const w = world();
    const made = await add(w);
    const id = `msg_${made.id.slice(3)}_000000000000001`;
    await w.deliveries.store.createDelivery({
      id,
      webhookId: made.id,
      sk: 'd#000000000000001',
      kind: 'event',
      eventId: 'e',
      eventType: 'export.ready',
      status: 'delivered',
      attempts: [],
      attemptCount: 1,
      bytes: 2,
      body: new Uint8Array(),
      created: T0,
      expiresAt: T0 + 1e9,
      entries: [],
    });
    await w.use.replay(owner, id);
    expect((await w.deliveries.store.getLane(made.id))?.replays).toEqual(['d#000000000000001']);
    await expect(w.use.replay(owner, `msg_${made.id.slice(3)}_000000000000009`)).rejects.toBeInstanceOf(NotFound);
    await expect(w.use.replay(stranger, id)).rejects.toBeInstanceOf(Forbidden);
    await w.use.update(owner, made.id, { enabled: false });
    await expect(w.use.replay(owner, id)).rejects.toEqual(new Conflict(MESSAGES.webhookReplayDisabled));
  });
});
