import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { storableJson } from './json-attribute';

describe('a JSON value from outside, as DynamoDB stores it', () => {
  const values: unknown[] = [
    { constructor: 'toString' },
    { constructor: { name: 'Set' }, list: [{ constructor: { name: 'String' } }, 2, null, true] },
    { a: { b: { valueOf: 1, toString: 'x' } } },
    ['constructor', { constructor: 265 }],
    'plain',
    7,
  ];

  it('round-trips objects holding a key named constructor, which the marshaller alone refuses or misreads', () => {
    expect(() => marshall({ value: values[0] })).toThrow();
    for (const value of values) {
      expect(unmarshall(marshall({ value: storableJson(value) }, { removeUndefinedValues: true })).value).toEqual(
        value,
      );
    }
  });
});
