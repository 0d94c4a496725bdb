import { defineAudit, notAudited } from '../define-audit';
import type { migrate } from '../migrate';

/** A run started by an Administrator (docs/audit.md); the deploy's and `npm start`'s runs are not a person's. */
export const migrateAudit = /* @__PURE__ */ defineAudit<typeof migrate>({
  listMigrations: notAudited('a read'),
  runMigrations: {
    action: 'migrations.run',
    label: 'Ran the pending data migrations',
    target: { kind: 'migrations', id: () => 'pending' },
  },
});
