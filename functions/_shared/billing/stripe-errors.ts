/**
 * Stripe's "No such …" (`resource_missing`): the object asked for, or one a parameter names (`customer`,
 * `starting_after`), does not exist. Answers which parameter named it (`id` for the object of the path), else nothing.
 */
export const resourceMissing = (error: unknown): string | undefined => {
  const { code, param } = (error ?? {}) as { code?: unknown; param?: unknown };
  if (code !== 'resource_missing') return undefined;
  return typeof param === 'string' && param ? param : 'id';
};
