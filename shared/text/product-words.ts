/**
 * How people read the product's own names: product lines and tiers. Imports nothing, so the messages module
 * (shared/messages.ts), which the contracts import, can use it without a cycle.
 */

/** A product line as people read it, everywhere: "AL60", never its id "al60" (which the API and URLs carry). */
export const PRODUCT_LINE_NAMES = { sd1: 'SD1', al30: 'AL30', al60: 'AL60', al80: 'AL80' } as const;

/** The name of a product line given as text (a stored record, a product's metadata): an unknown one in capitals. */
export const productLineName = (line: string): string =>
  Object.hasOwn(PRODUCT_LINE_NAMES, line)
    ? PRODUCT_LINE_NAMES[line as keyof typeof PRODUCT_LINE_NAMES]
    : line.toUpperCase();

/**
 * A tier's name as a sentence reads it: "Tier 2", and a named tier as "the Free tier" (the spec's table writes the
 * AL lines' base tier "free"; "free shows the last 7 days" reads as a broken sentence). `atStart`: "The Free tier".
 */
export const tierInWords = (name: string, atStart = false): string => {
  if (/^Tier \d+$/.test(name)) return name;
  return `${atStart ? 'The' : 'the'} ${name} tier`;
};
