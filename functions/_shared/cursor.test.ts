import { decodeCursor, encodeCursor } from './cursor';
import { BadRequest } from './errors';

describe('page cursors', () => {
  it('round-trips a DynamoDB key', () => {
    const key = { id: 'maintenance-mode', n: 3 };
    expect(decodeCursor(encodeCursor(key))).toEqual(key);
  });

  it('has no cursor for the last page', () => {
    expect(encodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor(undefined)).toBeUndefined();
  });

  it.each(['%%%', Buffer.from('[1,2]').toString('base64url'), Buffer.from('"x"').toString('base64url')])(
    'rejects a forged cursor %s as a bad request',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(BadRequest);
    },
  );
});
