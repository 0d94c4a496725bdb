import { type CognitoIdentityProviderClient, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { GroupName } from '../../../shared/auth/groups';
import type { RelationType } from '../../../shared/relations/relation-types';
import { batchGetAll } from '../../_shared/dynamodb';
import { cursorPage } from '../../_shared/paging';
import { createRelationTable } from '../../_shared/relations/relation-table';
import type { AudienceStore, Person } from '../domain/ports';

/** Cognito's largest ListUsersInGroup page. */
const GROUP_PAGE = 60;

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
      const page = await cursorPage(
        (startKey, max) => relations.queryIndex('referrer', referrerId, { type, limit: max, startKey }),
        { limit, ...(cursor ? { cursor } : {}) },
      );
      return { ids: page.items.map((relation) => relation.referentId), nextCursor: page.nextCursor };
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
