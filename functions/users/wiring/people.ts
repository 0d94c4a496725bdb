import { randomInt } from 'node:crypto';
import { PASSWORD_POLICY } from '../../../shared/auth/password-policy';
import { type BillingEnv, secretsManagerReader, stripeClientProvider } from '../../_shared/billing/stripe-client';
import { getS3Client, getSecretsManagerClient } from '../../_shared/clients';
import { log } from '../../_shared/logger';
import { createPeople, temporaryPassword } from '../domain/people';
import { createBackupStore } from '../store/backup-store';
import { createBillingCustomers } from '../store/billing-customers';
import type { CommonDeps } from './common';

/** People, groups and the user pool's admin operations, built from the area's common dependencies. */
export const createPeopleDeps = (common: CommonDeps, billing: BillingEnv) => ({
  people: createPeople({
    log,
    identity: common.identity,
    users: common.users,
    sessions: common.relations.versions,
    mailer: common.mailer,
    backups: createBackupStore({ s3: getS3Client(), bucket: common.env.userBackupsBucket }),
    events: common.events,
    recordedAuthEvents: common.authEvents,
    findCustomerIdByEmail: createBillingCustomers({
      stripe: stripeClientProvider(billing, secretsManagerReader(getSecretsManagerClient())),
    }).findCustomerIdByEmail,
    webOrigin: common.env.webOrigin,
    now: common.now,
    newId: common.newId,
    newPassword: () => temporaryPassword(PASSWORD_POLICY, randomInt),
  }),
});
