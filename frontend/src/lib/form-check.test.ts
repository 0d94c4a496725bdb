import * as z from 'zod';
import { checkWith, problem, problemsOf } from './form-check';

describe('checking a form with the contract schema', () => {
  const schema = z.object({ name: z.string().min(1, 'Name cannot be empty'), location: z.object({ lat: z.number() }) });

  it('passes the body as given when the schema accepts it', () => {
    expect(checkWith(schema, { name: 'x', location: { lat: 1 } })).toEqual({
      ok: true,
      value: { name: 'x', location: { lat: 1 } },
    });
  });

  it("gives each field its first issue's message and the form the first overall", () => {
    const checked = checkWith(schema, { name: '', location: { lat: 'no' as unknown as number } });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.message).toBe('Name cannot be empty');
    expect(checked.fields.name).toBe('Name cannot be empty');
    expect(checked.fields.location).toBeDefined();
  });

  it('files root issues under the form', () => {
    expect(problemsOf([{ path: [], message: 'Nothing to change' }])).toEqual({
      message: 'Nothing to change',
      fields: { form: 'Nothing to change' },
    });
    expect(problem('lat', 'Bad')).toEqual({ ok: false, message: 'Bad', fields: { lat: 'Bad' } });
  });
});
