import type * as z from 'zod';

/** Messages per field (the first issue of each), and the first message overall for the form's alert. */
export interface FormProblems {
  message: string;
  fields: Record<string, string>;
}

export type Checked<T> = { ok: true; value: T } | ({ ok: false } & FormProblems);

/**
 * Checks a request body with the contract's own schema before it is sent, so the form shows the words the API
 * would answer with, next to the field they are about. The value sent is the body as given (the API applies
 * its own trimming and defaults); the parsed value is only the verdict.
 */
export const checkWith = <S extends z.ZodType>(schema: S, body: z.input<S>): Checked<z.input<S>> => {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: body };
  return { ok: false, ...problemsOf(parsed.error.issues) };
};

/** Issues as field messages: an issue at `location.lat` belongs to `location`; one at the root to `form`. */
export const problemsOf = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): FormProblems => {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'form';
    fields[field] ??= issue.message;
  }
  return { message: issues[0]?.message ?? 'The form is not valid', fields };
};

/** A refusal found before the schema runs (e.g. a date that is not a date), as the same shape. */
export const problem = (field: string, message: string): { ok: false } & FormProblems => ({
  ok: false,
  message,
  fields: { [field]: message },
});
