import { fieldBinder, toggled } from './form-fields';

describe('form field helpers', () => {
  it('toggled: adds at the end once, removes every time, keeps the order', () => {
    expect(toggled(['a', 'b'], 'c', true)).toEqual(['a', 'b', 'c']);
    expect(toggled(['a', 'b'], 'a', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b', 'c'], 'b', false)).toEqual(['a', 'c']);
    expect(toggled(['a'], 'z', false)).toEqual(['a']);
  });

  it("fieldBinder: a field's id, value, change and message by its name", () => {
    const changes: [string, unknown][] = [];
    const bind = fieldBinder('f1', { limit: '35', name: 'PM' }, (key, value) => changes.push([key, value]), {
      limit: 'Limit must be a number',
    });
    const limit = bind('limit');
    expect({ id: limit.id, value: limit.value, error: limit.error }).toEqual({
      id: 'f1-limit',
      value: '35',
      error: 'Limit must be a number',
    });
    expect(bind('name').error).toBeUndefined();
    limit.onChange('40');
    expect(changes).toEqual([['limit', '40']]);
  });
});
