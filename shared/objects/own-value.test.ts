import { ownValue } from './own-value';

describe('ownValue', () => {
  const record: Record<string, number> = { a: 1, constructor: 2 };

  it("answers the record's own values, a held name that shadows an inherited one included", () => {
    expect(ownValue(record, 'a')).toBe(1);
    expect(ownValue(record, 'constructor')).toBe(2);
  });

  it("answers nothing for Object.prototype's names the record does not hold itself", () => {
    for (const name of ['__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'b']) {
      expect(ownValue(record, name)).toBeUndefined();
    }
    expect(ownValue({}, 'constructor')).toBeUndefined();
  });
});
