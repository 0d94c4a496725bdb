import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { tierFeaturesValueOf } from '../../../shared/sensor-data/tier-features';
import { DEFAULT_TIERS } from '../../../shared/sensor-data/tiers';
import type { ReadAhead } from '../read-ahead';
import { createDeviceTiers } from './device-tier';

describe('a device tier', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  const NOW = 1_000_000;
  const tiers = createDeviceTiers({ db, tableName: 'subs', parametersTable: 'params', now: () => NOW });
  /** The batch answer: the subscription record and the stored table, either absent. */
  const answer = (subscription?: Record<string, unknown>, table?: unknown) =>
    dynamo.on(BatchGetCommand).resolves({
      Responses: {
        subs: subscription ? [subscription] : [],
        params: table === undefined ? [] : [{ id: 'tier-features', value: table }],
      },
    });
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it('is the base tier without a subscription record, reading the record and the table consistently at once', async () => {
    answer();
    expect((await tiers.tierReader('dev-1'))('sd1').tier.name).toBe('Tier 0');
    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input.RequestItems).toMatchObject({
      subs: { Keys: [{ deviceId: 'dev-1' }], ConsistentRead: true },
      params: { Keys: [{ id: 'tier-features' }], ConsistentRead: true },
    });
  });

  it.each([
    ['active', undefined, 'Tier 2'],
    ['trialing', NOW + 1, 'Tier 2'],
    ['past_due', undefined, 'Tier 2'],
    ['canceled', undefined, 'Tier 0'],
    ['unpaid', undefined, 'Tier 0'],
    ['active', NOW - 1, 'Tier 0'],
  ])('with status %s and period end %s is %s', async (status, currentPeriodEnd, name) => {
    answer({ deviceId: 'dev-1', tier: 'tier2', status, currentPeriodEnd });
    expect((await tiers.tierReader('dev-1'))('sd1').tier.name).toBe(name);
  });

  it("answers the stored table's features and the line's rows", async () => {
    const stored = tierFeaturesValueOf(DEFAULT_TIERS);
    stored.sd1.tier0!.historicalDataAccessDays = 3;
    answer(undefined, stored);
    const { tier, line } = (await tiers.tierReader('dev-1'))('sd1');
    expect(tier.features.historicalDataAccessDays).toBe(3);
    expect(line.map((row) => row.features.historicalDataAccessDays)).toEqual([3, 30, 365]);
  });

  it('falls back to the seed when the stored table is invalid, and logs it as an error', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      answer({ deviceId: 'dev-1', tier: 'tier1', status: 'active' }, { sd1: 'all of it' });
      const { tier, line } = (await tiers.tierReader('dev-1'))('al30');
      expect(tier).toBe(DEFAULT_TIERS.al30[1]);
      expect(line).toBe(DEFAULT_TIERS.al30);
      expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)).level)).toContain('ERROR');
      expect(logged.mock.calls[0]![0]).toContain('tier-features parameter is invalid');
    } finally {
      logged.mockRestore();
    }
  });

  it('reads nothing itself when both keys were read ahead', async () => {
    const keys = tiers.keyReads('dev-1');
    const ahead: ReadAhead = {
      has: (read) => keys.some((key) => key.table === read.table),
      item: (read) => (read.table === 'subs' ? { deviceId: 'dev-1', tier: 'tier1', status: 'active' } : undefined),
    };
    expect((await tiers.tierReader('dev-1', ahead))('sd1').tier.name).toBe('Tier 1');
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('reads the whole table alone for the pricing displays', async () => {
    const stored = tierFeaturesValueOf(DEFAULT_TIERS);
    stored.al80.tier3!.apiMaxRequests = 12_345;
    dynamo.on(GetCommand).resolves({ Item: { id: 'tier-features', value: stored } });
    const table = await tiers.table();
    expect(table.al80[3]!.features.apiMaxRequests).toBe(12_345);
    expect(dynamo.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({
      TableName: 'params',
      Key: { id: 'tier-features' },
      ConsistentRead: true,
    });
  });
});
