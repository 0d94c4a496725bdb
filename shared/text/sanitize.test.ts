import { OptionalSafeText, SafeText, sanitizeText } from './sanitize';

describe('sanitising (spec §5)', () => {
  it('keeps letters of any script, digits, spaces and the allowed marks, and trims', () => {
    expect(sanitizeText("  Zoë O'Brien-Łukasz, 3rd floor (north) & co.: ok?  ")).toBe(
      "Zoë O'Brien-Łukasz, 3rd floor (north) & co.: ok?",
    );
  });

  it('drops what could open markup or a template, and folds runs of whitespace', () => {
    expect(sanitizeText('<script>alert("x")</script>  {{name}} `cmd`\n\tend')).toBe(
      'scriptalert(x)/script name cmd end',
    );
  });

  it('refuses a required field that is empty once sanitised, and bounds its length', () => {
    const name = SafeText('Name', 5);
    expect(name.safeParse(' <> ').error?.issues[0]?.message).toBe('Name cannot be empty');
    expect(name.safeParse('abcdef').error?.issues[0]?.message).toBe('Name is at most 5 characters');
    expect(name.parse('  Ada ')).toBe('Ada');
  });

  it('lets an optional field be cleared', () => {
    expect(OptionalSafeText('Message', 10).parse('  ')).toBe('');
  });
});
