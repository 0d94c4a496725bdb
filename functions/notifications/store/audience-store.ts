import { type CognitoIdentityProviderClient, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { GroupName } from '../../../shared/auth/groups';
import type { RelationType } from '../../../shared/relations/relation-types';
import { batchGetAll } from '../../_shared/dynamodb';
import { createRelationTable } from '../../_shared/relations/relation-table';
import type { AudienceStore, Person } from '../domain/ports';

/** Cognito's largest ListUsersInGroup page. */
const GROUP_PAGE = 60;

const encode = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;
const decode = (cursor: string | undefined) =>
  cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined;

/**
 * Where audiences come from: relations (a Query on byReferrer, one type) and the user pool's groups
 * (ListUsersInGroup), page by page, and the people themselves from the users table. Never a Scan.
 */
export const createAudienceStore = ({
  db,
  cognito,
  relationsTable,
  usersTable,
  userPoolId,
}: {
  db: DynamoDBDocumentClient;
  cognito: CognitoIdentityProviderClient;
  relationsTable: string;
  usersTable: string;
  userPoolId: string;
}): AudienceStore => {
  const relations = createRelationTable({ db, tableName: relationsTable });
  return {
    relationPage: async (type: RelationType, referrerId: string, cursor: string | undefined, limit: number) => {
      const page = await relations.queryIndex('referrer', referrerId, { type, limit, startKey: decode(cursor) });
      return { ids: page.items.map((relation) => relation.referentId), nextCursor: encode(page.lastKey) };
    },

    groupPage: async (group: GroupName, cursor: string | undefined) => {
      const result = await cognito.send(
        new ListUsersInGroupCommand({
          UserPoolId: userPoolId,
          GroupName: group,
          Limit: GROUP_PAGE,
          ...(cursor ? { NextToken: cursor } : {}),
        }),
      );
      return {
        ids: (result.Users ?? []).map((user) => user.Username).filter((id): id is string => Boolean(id)),
        nextCursor: result.NextToken,
      };
    },

    people: async (ids: readonly string[]): Promise<Person[]> => {
      const items = await batchGetAll<Record<string, unknown>>(db, usersTable, ids, false);
      return items.map((item) => ({
        id: item.id as string,
        ...(item.email ? { email: item.email as string } : {}),
        ...(item.displayName ? { displayName: item.displayName as string } : {}),
        rolesList: (item.rolesList as string[] | undefined) ?? [],
      }));
    },
  };
};
