import { createPeopleNames } from '../domain/people-names';
import { createLookupCounter } from '../store/lookup-counter';
import { createRelationTies } from '../store/relation-ties';
import type { CommonDeps } from './common';

/** People's names as others may see them, and the picker's exact-e-mail look-up (docs/users.md). */
export const createNamesDeps = (common: CommonDeps) => ({
  names: createPeopleNames({
    ...createRelationTies({ relations: common.relations.table }),
    users: common.users,
    lookups: createLookupCounter({ db: common.db, tableName: common.env.peopleLookupsTable }),
    signInProviders: common.env.signInProviders,
    now: common.now,
  }),
});
