import { usersAudit } from '../../shared/contracts/audit/users';
import { users } from '../../shared/contracts/users';
import { readBillingEnv } from '../_shared/billing/stripe-client';
import { type AreaHandlers, httpArea } from '../_shared/http/http-area';
import { createUsersDeps, readUsersEnv, type UsersDeps } from './deps';
import { accountHandlers } from './handlers/account';
import { peopleHandlers } from './handlers/people';

const env = readUsersEnv();
const billing = readBillingEnv();

/** Every route of the contract, from the two halves of the area: a route missing from both is a compile error. */
const handlers: AreaHandlers<typeof users, UsersDeps> = { ...peopleHandlers, ...accountHandlers };

export const handler = httpArea(users, handlers, { audit: usersAudit, deps: () => createUsersDeps(env, billing) });
