import type { AreaName } from '../../shared/contracts/areas';
import type { EnvName } from './environments';

export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  name: string;
  type: KeyType;
}

export interface TableDefinition {
  /** Stable CDK construct id: renaming it replaces the table. */
  constructId: string;
  area: AreaName;
  entity: string;
  /** The variable through which a Lambda of the owning area learns the table's name. */
  envVar: string;
  partitionKey: KeyDefinition;
  sortKey?: KeyDefinition;
  indexes?: { name: string; partitionKey: KeyDefinition; sortKey?: KeyDefinition }[];
}

/**
 * Every DynamoDB table, defined once: the CDK data stack and the local stack's bootstrap both create
 * tables from this list, so the two homes cannot drift.
 */
export const TABLES = {
  parameters: {
    constructId: 'ParametersTable',
    area: 'system',
    entity: 'parameters',
    envVar: 'PARAMETERS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
  },
  /** `id` = `type#referrerId#referentId`; each index sorts by type first, so a type is a key prefix. */
  relations: {
    constructId: 'RelationsTable',
    area: 'relations',
    entity: 'relations',
    envVar: 'RELATIONS_TABLE',
    partitionKey: { name: 'id', type: 'S' },
    indexes: [
      {
        name: 'byReferrer',
        partitionKey: { name: 'referrerId', type: 'S' },
        sortKey: { name: 'referrerSort', type: 'S' },
      },
      {
        name: 'byReferent',
        partitionKey: { name: 'referentId', type: 'S' },
        sortKey: { name: 'referentSort', type: 'S' },
      },
      { name: 'byType', partitionKey: { name: 'type', type: 'S' }, sortKey: { name: 'created', type: 'N' } },
    ],
  },
  /**
   * One counter per user, raised whenever a relation that decides the user's access changes. Every
   * Lambda's access cache compares it before trusting a cached decision (see functions/_shared/access).
   */
  accessVersions: {
    constructId: 'AccessVersionsTable',
    area: 'relations',
    entity: 'access-versions',
    envVar: 'ACCESS_VERSIONS_TABLE',
    partitionKey: { name: 'userId', type: 'S' },
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;

export const tableName = (table: TableDefinition, env: EnvName): string => `${table.area}-${env}-${table.entity}`;
