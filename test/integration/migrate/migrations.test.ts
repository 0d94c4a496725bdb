import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { MIGRATIONS } from '../../../functions/migrate/migrations/catalogue';
import { freshUser } from '../../support/people';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf } from '../../support/stack';

const HISTORY = '2026-11-25-subscription-history';
const PRESENCE_ITEMS = '2026-11-29-webhook-presence-items';

describe('migrate: versioned data migrations', () => {
  it('the stack ran every migration at its start; staff see them in order, a second run has nothing to do', async () => {
    const listed = await apiAs('migrate', await tokenOf('employee@example.com')).listMigrations({});
    expect(listed.items.map((migration) => migration.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    for (const migration of listed.items) {
      expect(migration.status).toBe('succeeded');
      expect(migration.finishedAt).toBeGreaterThanOrEqual(migration.startedAt!);
    }
    const run = await apiAs('migrate', await tokenOf('admin@example.com')).runMigrations({});
    expect(run).toMatchObject({ finished: [], more: false });
  });

  it('only Administrators run them, only staff read them', async () => {
    const employeeRun = await apiRejection(apiAs('migrate', await tokenOf('employee@example.com')).runMigrations({}));
    expect(employeeRun.status).toBe(403);
    const userList = await apiRejection(apiAs('migrate', await tokenOf('user@example.com')).listMigrations({}));
    expect(userList.status).toBe(403);
  });

  it('a migration whose record is gone runs again, once, and does its work: a subscription record reaches the history', async () => {
    const db = documentClient();
    const { tables } = stack();
    const device = await freshDevice({ productLine: 'sd1' });
    const record = {
      deviceId: device.id,
      id: `sub_migrate_${Date.now()}`,
      status: 'active',
      customerId: 'cus_migrate',
      tier: 'tier2',
      productId: 'prod_sd1_tier2',
      productName: 'SD1 Tier 2',
      planId: 'price_migrate',
      amount: 1_900,
      cancelAtPeriodEnd: false,
      // A record written before the history existed has no `syncedAt`.
      updated: Date.now() - 60_000,
    };
    await db.send(new PutCommand({ TableName: tables.deviceSubscriptions!, Item: record }));
    await db.send(new DeleteCommand({ TableName: tables.migrations!, Key: { id: HISTORY } }));

    const admin = apiAs('migrate', await tokenOf('admin@example.com'));
    const run = await admin.runMigrations({});
    expect(run).toMatchObject({ finished: [HISTORY], more: false });
    const ran = run.migrations.find((migration) => migration.id === HISTORY)!;
    expect(ran.status).toBe('succeeded');
    expect(ran.counts.updated).toBeGreaterThanOrEqual(1);
    expect(ran.runBy).toBe((await admin.listMigrations({})).items.find((m) => m.id === HISTORY)!.runBy);

    const copied = await db.send(
      new GetCommand({
        TableName: tables.deviceSubscriptionHistory!,
        Key: { deviceId: device.id, id: record.id },
        ConsistentRead: true,
      }),
    );
    expect(copied.Item).toMatchObject({ tier: 'tier2', status: 'active', syncedAt: record.updated });
    expect((await admin.runMigrations({})).finished).toEqual([]);
  });

  it("the presence items migration removes a webhook's retired p# items and nothing else of its deliveries", async () => {
    const db = documentClient();
    const { tables } = stack();
    const owner = await freshUser({ prefix: 'migrate-presence' });
    const device = await freshDevice({ ownerToken: owner.token });
    const hook = await apiAs('integrations', owner.token).createWebhook({
      body: { url: 'http://127.0.0.1:9/hook', events: ['device.offline'], target: { kind: 'device', id: device.id } },
    });
    // What the retired presence job left under a webhook (decision 105), beside an item of its own delivery log.
    const left = [`p#${device.id}`, 'p#dev-gone'];
    for (const sk of left) {
      await db.send(
        new PutCommand({
          TableName: tables.webhookDeliveries!,
          Item: { webhookId: hook.id, sk, online: false, lastSeen: Date.now() - 3_600_000 },
        }),
      );
    }
    const kept = { webhookId: hook.id, sk: 'd#000000000001', expiresAt: Math.floor(Date.now() / 1000) + 86_400 };
    await db.send(new PutCommand({ TableName: tables.webhookDeliveries!, Item: kept }));
    await db.send(new DeleteCommand({ TableName: tables.migrations!, Key: { id: PRESENCE_ITEMS } }));

    const run = await apiAs('migrate', await tokenOf('admin@example.com')).runMigrations({});
    expect(run).toMatchObject({ finished: [PRESENCE_ITEMS], more: false });
    expect(run.migrations.find((migration) => migration.id === PRESENCE_ITEMS)!.counts.updated).toBeGreaterThanOrEqual(
      1,
    );
    const { Items } = await db.send(
      new QueryCommand({
        TableName: tables.webhookDeliveries!,
        KeyConditionExpression: 'webhookId = :id',
        ExpressionAttributeValues: { ':id': hook.id },
        ConsistentRead: true,
      }),
    );
    const keys = (Items ?? []).map((item) => String(item.sk));
    expect(keys.filter((sk) => sk.startsWith('p#'))).toEqual([]);
    expect(keys).toContain(kept.sk);
  });
});
