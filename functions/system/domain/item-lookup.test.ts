import type { ItemKey } from '../../../shared/contracts/system';
import { BadRequest, Forbidden } from '../../_shared/errors';
import { createItemLookup, type Item, type LookupTableDefinition } from './item-lookup';

const devices: LookupTableDefinition = {
  table: 'devices',
  description: 'Devices',
  partitionKey: { name: 'id', type: 'S' },
  secrets: ['claimCodeHash'],
};
const readings: LookupTableDefinition = {
  table: 'readings',
  description: 'Readings',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'ts', type: 'N' },
  secrets: [],
};

const setup = (rows: Record<string, Item[]>, leave: Record<string, ItemKey[]> = {}) => {
  const asked: Map<string, readonly ItemKey[]>[] = [];
  const lookup = createItemLookup({
    tables: [devices, readings],
    refused: new Map([['apiKeys', "Holds people's API key hashes."]]),
    reader: {
      batchGet: async (keys) => {
        asked.push(new Map(keys));
        const found = new Map<string, Item[]>();
        for (const [table, tableKeys] of keys) {
          const left = new Set((leave[table] ?? []).map((k) => JSON.stringify(k)));
          found.set(
            table,
            (rows[table] ?? []).filter((row) =>
              tableKeys.some(
                (key) =>
                  !left.has(JSON.stringify(key)) && Object.entries(key).every(([name, value]) => row[name] === value),
              ),
            ),
          );
        }
        return { found, unprocessed: new Map(Object.entries(leave)) };
      },
    },
  });
  return { lookup, asked };
};

describe('the item look-up', () => {
  it("answers items without their table's secrets or anything named like one, at any depth", async () => {
    const { lookup } = setup({
      devices: [
        {
          id: 'd1',
          name: 'Roof',
          claimCodeHash: 'abc',
          measurementNames: new Set(['pm2_5', 'co2']),
          meta: { resetToken: 'x', notes: [{ apiSecret: 'y', ok: 1 }] },
        },
      ],
    });
    const result = await lookup.batchGet({ devices: { Keys: [{ id: 'd1' }, { id: 'nope' }] } });
    expect(result.Responses.devices).toEqual([
      { id: 'd1', name: 'Roof', measurementNames: ['co2', 'pm2_5'], meta: { notes: [{ ok: 1 }] } },
    ]);
    expect(JSON.stringify(result)).not.toMatch(/abc|"x"|"y"/);
    expect(result.withheld.devices).toEqual(['claimCodeHash', 'meta.notes.0.apiSecret', 'meta.resetToken']);
    expect(result.missing.devices).toEqual([{ id: 'nope' }]);
    expect(result.UnprocessedKeys).toEqual({});
  });

  it('reads composite keys, each once, and answers items in the order asked', async () => {
    const { lookup, asked } = setup({
      readings: [
        { pk: 'd1#2026-11-20', ts: 2, values: { co2: 2 } },
        { pk: 'd1#2026-11-20', ts: 1, values: { co2: 1 } },
      ],
    });
    const result = await lookup.batchGet({
      readings: {
        Keys: [
          { pk: 'd1#2026-11-20', ts: 1 },
          { pk: 'd1#2026-11-20', ts: 2 },
          { pk: 'd1#2026-11-20', ts: 1 },
        ],
      },
    });
    expect(asked[0]!.get('readings')).toHaveLength(2);
    expect(result.Responses.readings!.map((item) => item.ts)).toEqual([1, 2]);
  });

  it('answers the keys DynamoDB left unread as UnprocessedKeys, not as missing', async () => {
    const { lookup } = setup({ devices: [{ id: 'd1' }, { id: 'd2' }] }, { devices: [{ id: 'd2' }] });
    const result = await lookup.batchGet({ devices: { Keys: [{ id: 'd1' }, { id: 'd2' }] } });
    expect(result.Responses.devices).toEqual([{ id: 'd1' }]);
    expect(result.UnprocessedKeys).toEqual({ devices: { Keys: [{ id: 'd2' }] } });
    expect(result.missing.devices).toEqual([]);
  });

  it('refuses a table that holds secrets (403, with the reason) and an unknown one (400, naming the tables)', async () => {
    const { lookup, asked } = setup({});
    const refused = await lookup.batchGet({ apiKeys: { Keys: [{ keyId: 'k' }] } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Forbidden);
    expect((refused as Error).message).toBe("Items of apiKeys cannot be looked up. Holds people's API key hashes.");
    const unknown = await lookup.batchGet({ 'devices-prod-devices': { Keys: [{ id: 'd' }] } }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(BadRequest);
    expect((unknown as Error).message).toBe(
      'No table devices-prod-devices can be looked up; the tables are: devices, readings',
    );
    expect(asked).toHaveLength(0);
  });

  it('refuses keys of the wrong shape or type, naming each, and more than 100 keys', async () => {
    const { lookup, asked } = setup({});
    const error = (await lookup
      .batchGet({
        devices: { Keys: [{ id: 'ok' }, { id: 'd', extra: 'x' }, { name: 'x' }] },
        readings: { Keys: [{ pk: 'p', ts: '1' }] },
      })
      .catch((e: unknown) => e)) as BadRequest;
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.issues).toEqual([
      { path: 'body.params.RequestItems.devices.Keys.1', message: 'A key of this table has exactly id' },
      { path: 'body.params.RequestItems.devices.Keys.2', message: 'A key of this table has exactly id' },
      { path: 'body.params.RequestItems.readings.Keys.0', message: 'ts must be a number' },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `d${i}` }));
    await expect(lookup.batchGet({ devices: { Keys: many } })).rejects.toThrow(
      'At most 100 keys can be looked up at once; 101 were asked',
    );
    expect(asked).toHaveLength(0);
  });

  it('lists its tables with their keys and what each withholds', () => {
    expect(setup({}).lookup.tables()).toEqual([
      {
        table: 'devices',
        description: 'Devices',
        partitionKey: { name: 'id', type: 'S' },
        withheld: ['claimCodeHash'],
      },
      {
        table: 'readings',
        description: 'Readings',
        partitionKey: { name: 'pk', type: 'S' },
        sortKey: { name: 'ts', type: 'N' },
        withheld: [],
      },
    ]);
  });
});
