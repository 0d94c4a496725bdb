import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type KeyRead, type ReadAhead, readKey } from '../read-ahead';
import { toAuditItem } from './audit-item';
import type { AuditLog } from './audit-trail';

/** The variables an area whose routes are audited is told (infra/definitions/services.ts grants what they name). */
export const AUDIT_LOG_ENV = { auditLogTable: 'AUDIT_LOG_TABLE', usersTable: 'USERS_TABLE' } as const;

/**
 * The chain's writer of the audit log: one conditional put per record, never over another (its key holds the request
 * id and the phase, so a retried write of the same record fails rather than replaces). The functions that use it are
 * granted PutItem on the table and nothing else (test/infra/audit.test.ts), and this module has no update or delete.
 */
export const createAuditLogStore = ({
  db,
  tableName,
  usersTable,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
  /** The users table, of which only the actor's `email` is read (the grant allows no other attribute). */
  usersTable: string;
}): AuditLog => {
  const actorRead = (actorId: string): KeyRead => ({
    table: usersTable,
    key: { id: actorId },
    consistent: false,
    attributes: ['email'],
  });
  return {
    actorRead,
    actorEmail: async (actorId: string, ahead: ReadAhead) => {
      const item = await readKey(db, actorRead(actorId), ahead);
      return typeof item?.email === 'string' ? item.email : undefined;
    },
    append: async (record) => {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: toAuditItem(record),
          ConditionExpression: 'attribute_not_exists(#month)',
          ExpressionAttributeNames: { '#month': 'month' },
        }),
      );
    },
  };
};
