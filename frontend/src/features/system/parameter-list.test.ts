import { formatValue, parseValueText } from './parameter-list';

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
