import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createDeviceTiers } from './device-tier';

describe('a device tier', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  const NOW = 1_000_000;
  const tiers = createDeviceTiers({ db, tableName: 'subs', now: () => NOW });
  beforeEach(() => dynamo.reset());
  afterAll(() => dynamo.restore());

  it('is the base tier without a subscription record, read consistently', async () => {
    dynamo.on(GetCommand).resolves({});
    expect((await tiers.tierReader('dev-1'))('sd1').name).toBe('Tier 0');
    expect(dynamo.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({
      Key: { deviceId: 'dev-1' },
      ConsistentRead: true,
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
    dynamo.on(GetCommand).resolves({ Item: { deviceId: 'dev-1', tier: 'tier2', status, currentPeriodEnd } });
    expect((await tiers.tierReader('dev-1'))('sd1').name).toBe(name);
  });
});
