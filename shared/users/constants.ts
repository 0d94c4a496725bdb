/**
 * Spec §4, §9: a queued account is deleted within 2 to 4 weeks. It becomes due two weeks after it was
 * queued; the deletion job runs every hour (infra/definitions/services.ts SCHEDULED_JOBS), so it is gone
 * soon after, well inside four weeks even if the job fails for days.
 */
export const DELETION_DELAY_MS = 14 * 24 * 60 * 60 * 1000;

/** Spec §9: the user and groups cached in the browser are stale after 7 days. */
export const LOCAL_CACHE_LIFETIME_MS = 604_800_000;
