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
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof TABLES;

export const tableName = (table: TableDefinition, env: EnvName): string => `${table.area}-${env}-${table.entity}`;
