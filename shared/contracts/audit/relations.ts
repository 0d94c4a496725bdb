import { relationId } from '../../relations/relation-types';
import { defineAudit, notAudited } from '../define-audit';
import type { relations } from '../relations';

/**
 * Relations changed by staff (docs/audit.md). Staff may change any relation, so whether a staff member also holds
 * the right through a relation of their own cannot be told from the request: every staff change is recorded.
 */
export const relationsAudit = /* @__PURE__ */ defineAudit<typeof relations>({
  create: {
    action: 'relation.create',
    label: 'Created a relation',
    target: { kind: 'relation', id: ({ body }) => relationId(body.type, body.referrerId, body.referentId) },
  },
  list: notAudited('a read'),
  listPage: notAudited('a read'),
  listByParameters: notAudited('a read with a body'),
  names: notAudited('a read with a body'),
  update: {
    action: 'relation.update',
    label: "Changed a relation's role",
    target: { kind: 'relation', id: ({ params }) => params.id },
  },
  delete: {
    action: 'relation.delete',
    label: 'Deleted a relation',
    target: { kind: 'relation', id: ({ params }) => params.id },
  },
  migrate: {
    action: 'relations.migrate',
    label: 'Migrated a page of stored relations',
    target: { kind: 'relations', id: () => 'relations' },
  },
});
