import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Invite } from '../../../shared/contracts/users';
import { putIf, queryPage, scanPage } from '../../_shared/dynamodb';
import { type PageRead, readAll } from '../../_shared/paging';
import type { InviteFilters, InviteStore } from '../domain/ports';

/** The stored row: the invite plus the lower-cased e-mail the byInvitedEmail index is keyed on. */
const toItem = (invite: Invite) => ({ ...invite, invitedEmail: invite.invited.email.trim().toLowerCase() });

const toInvite = (item: Record<string, unknown>): Invite => {
  const { invitedEmail: _e, ...invite } = item;
  return invite as unknown as Invite;
};

interface Filter {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

const filterOf = (filters: InviteFilters): Filter => {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filters.status) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filters.status;
  }
  if (filters.type) {
    conditions.push('#type = :type');
    names['#type'] = 'type';
    values[':type'] = filters.type;
  }
  if (filters.objectId) {
    conditions.push('objectId = :object');
    values[':object'] = filters.objectId;
  }
  if (filters.invitedEmail) {
    conditions.push('invitedEmail = :email');
    values[':email'] = filters.invitedEmail.trim().toLowerCase();
  }
  return conditions.length
    ? {
        FilterExpression: conditions.join(' AND '),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }
    : {};
};

/** The invites table (spec §3 Invite): the only code that reads or writes it. */
export const createInviteStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): InviteStore => {
  const query = (
    index: 'byInviter' | 'byInvitedEmail',
    key: string,
    filters: InviteFilters,
    page: Partial<PageRead> = {},
  ) => {
    const filter = filterOf(filters);
    const keyName = index === 'byInviter' ? 'inviterId' : 'invitedEmail';
    return queryPage(
      db,
      {
        TableName: tableName,
        IndexName: index,
        KeyConditionExpression: `${keyName} = :key`,
        ...filter,
        ExpressionAttributeValues: { ...filter.ExpressionAttributeValues, ':key': key },
        // Newest first: the indexes sort by `created`.
        ScanIndexForward: false,
      },
      page,
      toInvite,
    );
  };

  return {
    get: async (id: string): Promise<Invite | undefined> => {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }));
      return result.Item ? toInvite(result.Item) : undefined;
    },

    create: (invite: Invite): Promise<boolean> =>
      putIf(db, { TableName: tableName, Item: toItem(invite), ConditionExpression: 'attribute_not_exists(id)' }),

    save: (invite: Invite, readVersion: number): Promise<boolean> =>
      putIf(db, {
        TableName: tableName,
        Item: toItem(invite),
        ConditionExpression: 'attribute_exists(id) AND updated = :read',
        ExpressionAttributeValues: { ':read': readVersion },
      }),

    remove: async (id: string): Promise<void> => {
      await db.send(new DeleteCommand({ TableName: tableName, Key: { id } }));
    },

    byInviter: (inviterId: string, filters: InviteFilters, page: PageRead) =>
      query('byInviter', inviterId, filters, page),

    byInvitedEmail: (email: string, filters: Omit<InviteFilters, 'invitedEmail'>, page: PageRead) =>
      query('byInvitedEmail', email.trim().toLowerCase(), filters, page),

    allByInviter: (inviterId: string) => readAll((startKey) => query('byInviter', inviterId, {}, { startKey })),

    allByInvitedEmail: (email: string) =>
      readAll((startKey) => query('byInvitedEmail', email.trim().toLowerCase(), {}, { startKey })),

    scan: (filters: InviteFilters, page: PageRead) =>
      scanPage(db, { TableName: tableName, ...filterOf(filters) }, page, toInvite),
  };
};
