import type { Migration, MigrationRun } from '../../../../shared/contracts/migrate';

/** A migration's status in words and the badge colour of its kind (tokens of frontend/src/app/tokens.css). */
export const MIGRATION_LOOKS: Record<
  Migration['status'],
  { label: string; tone: 'success' | 'info' | 'danger' | 'muted' }
> = {
  succeeded: { label: 'Succeeded', tone: 'success' },
  running: { label: 'Running', tone: 'info' },
  failed: { label: 'Failed', tone: 'danger' },
  pending: { label: 'Pending', tone: 'muted' },
};

/** Who ran it, as staff read it: the deploy, the local commands, or a person (their id until names come). */
export const runByText = (runBy: string | undefined): string => {
  if (!runBy) return '—';
  if (runBy === 'deploy') return 'A deploy';
  if (runBy.startsWith('npm ')) return runBy;
  return `Staff member ${runBy}`;
};

/** What a run from the page did, in one sentence. */
export const runSummary = (run: MigrationRun): string => {
  if (run.failed) return `Migration ${run.failed} failed; the ones after it wait. It runs again on the next run.`;
  const done = run.finished.length;
  const finished = done === 0 ? 'Nothing was pending.' : `${done} migration${done === 1 ? '' : 's'} finished.`;
  return run.more ? `${finished} More work remains: run again to continue.` : finished;
};
