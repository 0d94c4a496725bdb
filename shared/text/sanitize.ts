import * as z from 'zod';

/**
 * Spec §5: sanitising keeps only letters, digits, spaces and a few punctuation marks; values are trimmed.
 * The marks kept are those names, messages and subjects need; anything that could open markup or a
 * template (`<`, `>`, `{`, `}`, backticks, quotes other than the apostrophe) is dropped.
 */
const NOT_KEPT = /[^\p{L}\p{M}\p{N} .,'’\-_@!?()&:;/+#]/gu;

export const sanitizeText = (value: string): string => value.replace(/\s+/g, ' ').replace(NOT_KEPT, '').trim();

/** A free-text field that is sanitised and trimmed as it is parsed; empty after sanitising is refused. */
export const SafeText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .transform(sanitizeText)
    .pipe(z.string().min(1, `${label} cannot be empty`).max(max, `${label} is at most ${max} characters`));

/** Like SafeText, but empty is allowed (it clears the field). */
export const OptionalSafeText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .transform(sanitizeText)
    .pipe(z.string().max(max, `${label} is at most ${max} characters`));
