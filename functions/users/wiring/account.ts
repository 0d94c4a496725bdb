import { createPersonHoldings } from '../../_shared/account/holdings-wiring';
import { log } from '../../_shared/logger';
import { createAccount } from '../domain/account-deletion';
import { createInvites } from '../domain/invites';
import { createAccountIdentity } from '../store/account-identity';
import { createInviteStore } from '../store/invite-store';
import { type AccountEnv, type CommonDeps, createCommonDeps } from './common';

/** Invites and account deletion (the area's API and its deletion job), built from the area's common dependencies. */
export const createAccountDeps = (common: CommonDeps<AccountEnv>) => {
  const invites = createInviteStore({ db: common.db, tableName: common.env.invitesTable });
  const { table, versions, effects } = common.relations;
  return {
    account: createAccount({
      log,
      users: common.users,
      invites,
      table,
      effects,
      sessions: versions,
      identity: createAccountIdentity({ provider: common.identity }),
      authEvents: common.authEvents,
      holdings: createPersonHoldings(common.env, common.now),
      mailer: common.mailer,
      now: common.now,
    }),
    invites: createInvites({
      log,
      invites,
      users: common.users,
      table,
      effects,
      mailer: common.mailer,
      webOrigin: common.env.webOrigin,
      now: common.now,
      newId: common.newId,
    }),
  };
};

/** The deletion job's part: account deletion alone, without billing (the job gets no Stripe key). */
export const createDeletionJobDeps = (env: AccountEnv) => createAccountDeps(createCommonDeps(env));
