import { RELATION_TYPES } from '../../../../shared/relations/relation-types';
import { browseLoader, filterFromSearch, searchFromFilter } from './relation-browse';

const page = { items: [], nextCursor: undefined };
const fakeClient = () => {
  const calls: [string, unknown][] = [];
  const route = (name: string) => async (request: unknown) => {
    calls.push([name, request]);
    return page;
  };
  return {
    calls,
    client: {
      listPage: route('listPage'),
      listByReferrerId: route('listByReferrerId'),
      listByReferentId: route('listByReferentId'),
      listByParameters: route('listByParameters'),
    },
  };
};

describe('the filter in the address', () => {
  it('round-trips', () => {
    const filter = { type: 'device-owner' as const, referrerId: 'dev-1', referentId: 'u-1' };
    expect(filterFromSearch(new URLSearchParams(searchFromFilter(filter)))).toEqual(filter);
  });

  it('ignores an unknown type and blank ids', () => {
    expect(filterFromSearch(new URLSearchParams('type=owner&referrer=%20&referent='))).toEqual({});
    expect(searchFromFilter({})).toEqual({});
  });
});

describe('browseLoader', () => {
  it('lists every relation, of one type or all, without an id', async () => {
    const { calls, client } = fakeClient();
    await browseLoader(client, {}, 20)(undefined);
    await browseLoader(client, { type: 'campaign-device' }, 20)('next');
    expect(calls).toEqual([
      ['listPage', { params: { x: 20 }, query: { type: undefined, cursor: undefined } }],
      ['listPage', { params: { x: 20 }, query: { type: 'campaign-device', cursor: 'next' } }],
    ]);
  });

  it('queries by referrer or by referent when one id is given', async () => {
    const { calls, client } = fakeClient();
    await browseLoader(client, { referrerId: 'dev-1', type: 'device-owner' }, 20)(undefined);
    await browseLoader(client, { referentId: 'u-1' }, 20)('c');
    expect(calls).toEqual([
      ['listByReferrerId', { params: { id: 'dev-1', x: 20 }, query: { type: 'device-owner', cursor: undefined } }],
      ['listByReferentId', { params: { id: 'u-1', x: 20 }, query: { type: undefined, cursor: 'c' } }],
    ]);
  });

  it('asks for the relations between two ids when both are given', async () => {
    const { calls, client } = fakeClient();
    await browseLoader(client, { referrerId: 'dev-1', referentId: 'u-1' }, 20)(undefined);
    expect(calls).toEqual([
      [
        'listByParameters',
        {
          body: {
            parameters: [{ typeName: 'referrer', id: 'dev-1', otherId: 'u-1', typeArray: [...RELATION_TYPES] }],
            limit: 20,
            cursor: undefined,
          },
        },
      ],
    ]);
  });
});
