/**
 * Downloads that may be started per UTC clock hour: each is a background job reading up to a year of readings,
 * so they are limited per person, and per address for guests, who have no identity. Over it: 429, Retry-After.
 * Kept out of the exports contract, whose routes the api area's signed links have no use for.
 */
export const EXPORT_STARTS_PER_HOUR = { person: 30, guest: 10 } as const;
