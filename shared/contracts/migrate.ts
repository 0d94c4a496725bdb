import * as z from 'zod';
import { EpochMillis } from './common';
import { defineArea, defineRoute, minGroup } from './define-route';

/** Where a migration stands: never started, claimed by a runner now, done, or stopped by an error (run again). */
export const MIGRATION_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export const MigrationStatus = z.enum(MIGRATION_STATUSES);
export type MigrationStatus = z.infer<typeof MigrationStatus>;

/** Rows a migration looked at, changed, and left for a person to look at. */
export const MigrationCounts = z.object({
  scanned: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
});
export type MigrationCounts = z.infer<typeof MigrationCounts>;

/** A migration in code, with what its runs recorded (docs/migrations.md). */
export const Migration = z.object({
  id: z.string(),
  description: z.string(),
  status: MigrationStatus,
  counts: MigrationCounts,
  startedAt: EpochMillis.optional(),
  finishedAt: EpochMillis.optional(),
  /** Who ran it last: a person's id, `deploy` (the cloud's deploy-time runner) or `npm start` / `npm run migrate`. */
  runBy: z.string().optional(),
  /** The last run's error, when it failed. */
  error: z.string().optional(),
});
export type Migration = z.infer<typeof Migration>;

export const MigrationRun = z.object({
  /** Migrations this run finished. */
  finished: z.array(z.string()),
  /** A migration that failed (the run stops there: later ones may depend on it). */
  failed: z.string().optional(),
  /** True when the time budget ran out before the pending migrations did: run again to continue. */
  more: z.boolean(),
  migrations: z.array(Migration),
});
export type MigrationRun = z.infer<typeof MigrationRun>;

/**
 * Versioned data migrations (spec §1's migrate area): defined in code, each run once, recorded in the migrations
 * table. The cloud runs them at deploy time and `npm start` at every start; staff see them here and
 * Administrators may run what is pending.
 */
export const migrate = defineArea('migrate', {
  listMigrations: defineRoute({
    method: 'GET',
    path: '/migrations',
    access: minGroup('Employees'),
    summary: 'Every migration in code, in order, with what its runs recorded.',
    response: z.object({ items: z.array(Migration) }),
  }),
  runMigrations: defineRoute({
    method: 'POST',
    path: '/migrations/run',
    access: minGroup('Administrators'),
    summary:
      'Run the pending (or failed) migrations in order, for up to 20 s; `more` says when a run must continue. Idempotent.',
    response: MigrationRun,
  }),
});
