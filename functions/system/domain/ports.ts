import type { Parameter } from '../../../shared/contracts/system';
import type { KeyRead, ReadAhead } from '../../_shared/read-ahead';

export interface ParameterStore {
  /** From what the request read ahead when it is there (`keyRead`), else a consistent read of its own. */
  get: (id: string, ahead?: ReadAhead) => Promise<Parameter | undefined>;
  /** The key `get` reads, for a route to read it with the session record. */
  keyRead: (id: string) => KeyRead;
  /** Admin tooling only: a paged Scan is acceptable for a table of a few hundred settings. */
  list: (page: { limit: number; cursor?: string }) => Promise<{
    items: Parameter[];
    nextCursor?: string;
  }>;
  /** @returns false when the id already exists */
  create: (parameter: Parameter) => Promise<boolean>;
  /**
   * Creates or replaces: for a parameter whose absence means its default (the tier table).
   * @returns the parameter it replaced, if any (read in the same write, for the audit log)
   */
  put: (parameter: Parameter) => Promise<Parameter | undefined>;
  /**
   * @returns the parameter as it was and as it is now (the old one read in the same write), or undefined when the id
   * does not exist
   */
  update: (
    id: string,
    value: Parameter['value'],
    updated: number,
  ) => Promise<
    | {
        before: Parameter;
        after: Parameter;
      }
    | undefined
  >;
  /** @returns the parameter deleted, or undefined when the id does not exist */
  remove: (id: string) => Promise<Parameter | undefined>;
}
