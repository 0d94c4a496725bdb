import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { MIGRATIONS } from '../../../functions/migrate/migrations/catalogue';
import { freshDevice } from '../../support/sensor-data';
import { apiAs, apiRejection, documentClient, stack, tokenOf } from '../../support/stack';

const HISTORY = '2026-11-25-subscription-history';

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
});
