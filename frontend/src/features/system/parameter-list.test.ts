import { appendPage, formatValue, parseValueText, removeParameter, upsertParameter } from './parameter-list';

const p = (id: string, value: unknown = 1, updated = 0) => ({ id, value: value as never, updated });

describe('parseValueText', () => {
  it.each([
    ['"on"', 'on'],
    ['42', 42],
    ['true', true],
    ['null', null],
    [' {"a": [1, 2]} ', { a: [1, 2] }],
  ])('reads %s', (text, value) => {
    expect(parseValueText(text)).toEqual({ ok: true, value });
  });

  it('refuses an empty value', () => {
    expect(parseValueText('   ')).toEqual({ ok: false, error: expect.stringMatching(/^Value cannot be empty/) });
  });

  it('refuses text that is not JSON, before anything is sent', () => {
    const parsed = parseValueText('on');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^Value is not valid JSON/);
  });
});

describe('formatValue', () => {
  it('round-trips through parseValueText', () => {
    const value = { limits: [1, 2], name: 'x' };
    expect(parseValueText(formatValue(value))).toEqual({ ok: true, value });
  });
});

describe('the shown list', () => {
  it('appends a page, keeping rows already shown in place with their newer copy', () => {
    expect(appendPage([p('new'), p('a')], [p('a', 2), p('b')])).toEqual([p('new'), p('a', 2), p('b')]);
  });

  it('puts a created parameter first and replaces an edited one in place', () => {
    expect(upsertParameter([p('a'), p('b')], p('c'))).toEqual([p('c'), p('a'), p('b')]);
    expect(upsertParameter([p('a'), p('b')], p('a', 5))).toEqual([p('a', 5), p('b')]);
  });

  it('removes a deleted parameter', () => {
    expect(removeParameter([p('a'), p('b')], 'a')).toEqual([p('b')]);
  });
});
