import * as z from 'zod';

/** Spec §9: default page size 50. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().min(1).max(2048).optional(),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().optional() });

/** Any JSON value. Named, as it is recursive: an OpenAPI document holds it once, under components/schemas. */
export const JsonValue = z.json().register(z.globalRegistry, { id: 'JsonValue' });

/** Milliseconds since the epoch (the spec keeps every time in milliseconds). */
export const EpochMillis = z.number().int().nonnegative();
