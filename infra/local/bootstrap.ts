import { readFile, rename, writeFile } from 'node:fs/promises';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  type CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListGroupsCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  SetUserPoolMfaConfigCommand,
  UpdateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { type DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { hashSecret, newCredentialId, newSecret, tokenOf } from '../../functions/_shared/devices/credential-token';
import { createCredentialVerifier } from '../../functions/_shared/devices/credential-verifier';
import { createRelationTable } from '../../functions/_shared/relations/relation-table';
import { TABLES, type TableDefinition, tableName } from '../../functions/_shared/tables';
import { hashClaimCode } from '../../functions/devices/domain/claim-code';
import { MAX_CREDENTIALS_PER_DEVICE } from '../../functions/devices/domain/credentials';
import { createCredentialStore } from '../../functions/devices/store/credential-store';
import { createDeliveryStore } from '../../functions/notifications/store/delivery-store';
import { createNotificationStore } from '../../functions/notifications/store/notification-store';
import { createUserStore } from '../../functions/users/store/user-store';
import { relationId } from '../../shared/relations/relation-types';
import { GROUPS, USER_POOL } from '../definitions/auth';
import type { EnvName } from '../definitions/environments';
import { BUCKETS, QUEUES, type QueueKey } from '../definitions/storage';
import {
  DEMO_ACCOUNTS,
  DEMO_CAMPAIGNS,
  DEMO_CUSTOMER_EMAILS,
  DEMO_DEVICES,
  DEMO_ORGANIZATIONS,
  DEMO_PARAMETERS,
  DEMO_PASSWORD,
  DEMO_RELATIONS,
} from './demo-data';
import { addMissingIndexes, createTableInput, rebuildName, untilActive } from './table-indexes';

const isNamed = (error: unknown, ...names: string[]) => error instanceof Error && names.includes(error.name);

/**
 * Creates every table of the shared definitions that does not exist yet, and gives an existing one the indexes its
 * definition gained since (table-indexes.ts: dynalite cannot add one to a table).
 */
export const createTables = async (
  dynamo: DynamoDBClient,
  env: EnvName,
  log: (line: string) => void = () => undefined,
): Promise<Record<string, string>> => {
  const existing = new Set((await dynamo.send(new ListTablesCommand({}))).TableNames ?? []);
  const names: Record<string, string> = {};
  const created: string[] = [];
  for (const [key, table] of Object.entries(TABLES) as [string, TableDefinition][]) {
    const name = tableName(table, env);
    names[key] = name;
    if (existing.has(name) || existing.has(rebuildName(name))) {
      await addMissingIndexes(dynamo, name, table, log);
      continue;
    }
    await dynamo.send(createTableInput(name, table));
    created.push(name);
  }
  // dynalite answers a create before the table is active, and refuses a write until it is (ResourceNotFound).
  await Promise.all(created.map((name) => untilActive(dynamo, name)));
  return names;
};

export const createBuckets = async (s3: S3Client, env: EnvName): Promise<Record<string, string>> => {
  const names: Record<string, string> = {};
  for (const [key, bucket] of Object.entries(BUCKETS)) {
    names[key] = bucket.name(env);
    try {
      await s3.send(new CreateBucketCommand({ Bucket: names[key] }));
    } catch (error) {
      if (!isNamed(error, 'BucketAlreadyOwnedByYou', 'BucketAlreadyExists')) throw error;
    }
  }
  return names;
};

export const createQueues = (
  createQueue: (name: string, attributes?: Record<string, string>) => { queueUrl: string; queueArn: string },
  env: EnvName,
): Record<QueueKey, string> & Record<`${QueueKey}DeadLetter`, string> => {
  const urls: Record<string, string> = {};
  for (const [key, definition] of Object.entries(QUEUES)) {
    const fifo: Record<string, string> = definition.fifo ? { FifoQueue: 'true' } : {};
    const dlq = createQueue(definition.deadLetterName(env), {
      ...fifo,
      MessageRetentionPeriod: String(14 * 24 * 3600),
    });
    const queue = createQueue(definition.name(env), {
      ...fifo,
      VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: definition.maxReceiveCount }),
    });
    urls[key] = queue.queueUrl;
    urls[`${key}DeadLetter`] = dlq.queueUrl;
  }
  return urls as Record<QueueKey, string> & Record<`${QueueKey}DeadLetter`, string>;
};

/** Finds or creates the pool, its web client and the spec's six groups. */
export const createUserPool = async (cognito: CognitoIdentityProviderClient, env: EnvName) => {
  const poolName = USER_POOL.name(env);
  const pools = await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  let userPoolId = pools.UserPools?.find((p) => p.Name === poolName)?.Id;
  if (!userPoolId) {
    const { passwordPolicy } = USER_POOL;
    const created = await cognito.send(
      new CreateUserPoolCommand({
        PoolName: poolName,
        UsernameAttributes: [...USER_POOL.usernameAttributes],
        AutoVerifiedAttributes: ['email'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: passwordPolicy.minLength,
            RequireLowercase: passwordPolicy.requireLowercase,
            RequireUppercase: passwordPolicy.requireUppercase,
            RequireNumbers: passwordPolicy.requireDigits,
            RequireSymbols: passwordPolicy.requireSymbols,
          },
        },
      }),
    );
    userPoolId = created.UserPool!.Id!;
  }
  // As the cloud pool (auth-stack: MFA optional, TOTP only), also on pools created before this was set:
  // cognito-local's default, OFF, never asks for the TOTP code of a user who set one up.
  await cognito.send(
    new SetUserPoolMfaConfigCommand({
      UserPoolId: userPoolId,
      MfaConfiguration: 'OPTIONAL',
      SoftwareTokenMfaConfiguration: { Enabled: true },
    }),
  );
  const clientName = USER_POOL.webClientName(env);
  const clients = await cognito.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  let clientId = clients.UserPoolClients?.find((c) => c.ClientName === clientName)?.ClientId;
  if (!clientId) {
    const created = await cognito.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: clientName,
        // Locally only: cognito-local has no SRP, so the web app signs in with USER_PASSWORD_AUTH.
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    clientId = created.UserPoolClient!.ClientId!;
  }
  // As the cloud client (auth-stack), also on clients created before this was set: cognito-local's default
  // access token lives 24 hours, which would hide every refresh the web app must do.
  await cognito.send(
    new UpdateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientId: clientId,
      AccessTokenValidity: USER_POOL.accessTokenMinutes,
      IdTokenValidity: USER_POOL.idTokenMinutes,
      RefreshTokenValidity: USER_POOL.refreshTokenDays,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
    }),
  );
  // ListGroups rather than GetGroup: cognito-local's GetGroup fails on a pool without groups.
  const existing = await cognito.send(new ListGroupsCommand({ UserPoolId: userPoolId, Limit: 60 }));
  const existingNames = new Set((existing.Groups ?? []).map((g) => g.GroupName));
  for (const group of GROUPS) {
    if (!existingNames.has(group.name)) {
      await cognito.send(
        new CreateGroupCommand({
          UserPoolId: userPoolId,
          GroupName: group.name,
          Precedence: group.precedence,
          Description: group.description,
        }),
      );
    }
  }
  return { userPoolId, clientId };
};

const subOf = async (cognito: CognitoIdentityProviderClient, userPoolId: string, username: string) => {
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
  const sub = user.UserAttributes?.find((attribute) => attribute.Name === 'sub')?.Value;
  if (!sub) throw new Error(`Demo account ${username} has no sub`);
  return sub;
};

/** Creates the demo accounts that do not exist yet. @returns each account's user id (sub), by e-mail */
export const seedDemoAccounts = async (
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
): Promise<Map<string, string>> => {
  const subs = new Map<string, string>();
  for (const account of DEMO_ACCOUNTS) {
    try {
      subs.set(account.email, await subOf(cognito, userPoolId, account.email));
      continue;
    } catch (error) {
      if (!isNamed(error, 'UserNotFoundException')) throw error;
    }
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: account.email,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          { Name: 'email', Value: account.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'given_name', Value: account.givenName },
          { Name: 'family_name', Value: account.familyName },
        ],
      }),
    );
    await cognito.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: userPoolId,
        Username: account.email,
        Password: DEMO_PASSWORD,
        Permanent: true,
      }),
    );
    if ('group' in account) {
      await cognito.send(
        new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: account.email, GroupName: account.group }),
      );
    }
    subs.set(account.email, await subOf(cognito, userPoolId, account.email));
  }
  return subs;
};

export const seedDemoData = async (
  db: DynamoDBDocumentClient,
  tables: Record<string, string>,
  subs: ReadonlyMap<string, string>,
  now = Date.now(),
) => {
  const idOf = (name: string) => subs.get(name) ?? name;
  const users = createUserStore({ db, tableName: tables.users! });
  for (const account of DEMO_ACCOUNTS) {
    await users.ensure({
      id: idOf(account.email),
      email: account.email,
      givenName: account.givenName,
      familyName: account.familyName,
      roles: 'group' in account ? [account.group] : [],
      now,
    });
  }
  const relations = createRelationTable({ db, tableName: tables.relations! });
  for (const { type, referrer, referent } of DEMO_RELATIONS) {
    const ends = { type, referrerId: idOf(referrer), referentId: idOf(referent) };
    await relations.put({ id: relationId(type, ends.referrerId, ends.referentId), ...ends, created: now });
  }
  for (const { owner, seenMinutesAgo, claimCode, ...device } of DEMO_DEVICES) {
    const ownerId = owner === undefined ? undefined : idOf(owner);
    const item = {
      ...device,
      state: ownerId ? 'active' : 'provisioned',
      created: now,
      updated: now,
      claimCodeHash: hashClaimCode(device.id, claimCode),
      registeredBy: 'demo-data',
      ...(ownerId ? { ownerId, claimed: now } : {}),
      ...(seenMinutesAgo === undefined ? {} : { lastSeen: now - seenMinutesAgo * 60_000 }),
    };
    try {
      // Once: a device claimed, moved or retired in the demo keeps its state across restarts.
      await db.send(
        new PutCommand({ TableName: tables.devices, Item: item, ConditionExpression: 'attribute_not_exists(id)' }),
      );
    } catch (error) {
      if (!isNamed(error, 'ConditionalCheckFailedException')) throw error;
    }
  }
  for (const { createdBy, ...organization } of DEMO_ORGANIZATIONS) {
    try {
      // Only when missing: changes made in the demo survive a restart (a deleted one comes back with its relations).
      await db.send(
        new PutCommand({
          TableName: tables.organizations,
          Item: { ...organization, createdBy: idOf(createdBy), created: now, updated: now },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
    } catch (error) {
      if (!isNamed(error, 'ConditionalCheckFailedException')) throw error;
    }
  }
  for (const { createdBy, daysBefore, daysAfter, ...campaign } of DEMO_CAMPAIGNS) {
    try {
      // Only when missing, as for organizations: changes made in the demo survive a restart.
      await db.send(
        new PutCommand({
          TableName: tables.campaigns,
          Item: {
            ...campaign,
            startsAt: now - daysBefore * 86_400_000,
            endsAt: now + daysAfter * 86_400_000,
            createdBy: idOf(createdBy),
            created: now,
            updated: now,
          },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
    } catch (error) {
      if (!isNamed(error, 'ConditionalCheckFailedException')) throw error;
    }
  }
  await seedDemoNotification(db, tables, [...DEMO_ACCOUNTS.map((account) => idOf(account.email))], now);
  for (const parameter of DEMO_PARAMETERS) {
    try {
      await db.send(
        new PutCommand({
          TableName: tables.parameters,
          Item: { ...parameter, updated: now },
          ConditionExpression: 'attribute_not_exists(id)',
        }),
      );
    } catch (error) {
      if (!isNamed(error, 'ConditionalCheckFailedException')) throw error;
    }
  }
};

/**
 * Gives the demo accounts of DEMO_CUSTOMER_EMAILS a customer in the local Stripe server, through the real SDK.
 * Called when that server starts without saved state; skips an e-mail that already has one.
 */
export const seedDemoCustomers = async (stripe: Pick<Stripe, 'customers'>) => {
  for (const email of DEMO_CUSTOMER_EMAILS) {
    if ((await stripe.customers.list({ email, limit: 1 })).data.length > 0) continue;
    const account = DEMO_ACCOUNTS.find((a) => a.email === email)!;
    await stripe.customers.create({
      email,
      name: `${account.givenName} ${account.familyName}`,
      metadata: { source: 'local demo data' },
    });
  }
};

/**
 * A sent announcement with a banner for every demo account, so the banner bar and the notifications page show
 * something on a first start. Written once: read and dismissed marks survive restarts.
 */
const seedDemoNotification = async (
  db: DynamoDBDocumentClient,
  tables: Record<string, string>,
  recipients: readonly string[],
  now: number,
) => {
  const content = {
    icon: 'info' as const,
    requireInteraction: false,
    topic: 'announcements' as const,
    title: 'Welcome to the demo',
    body:
      '<p>This is a banner: staff send them under <strong>Admin → Notifications</strong>, and the platform sends its own ' +
      'when roles, device owners or organizations change. All of yours are on the ' +
      '<a href="/dashboard/notifications">notifications page</a>, where you also choose which come by e-mail.</p>',
    initiator: { id: 'demo-data', type: 'user-id' as const },
  };
  const notifications = createNotificationStore({ db, tableName: tables.notifications! });
  const made = await notifications.create({
    ...content,
    id: 'demo-welcome',
    methods: ['banner'],
    audience: recipients.map((id) => `user:userId=${id}`),
    status: 'sent',
    created: now,
    updated: now,
    sentAt: now,
    recipients: 0,
    banners: 0,
    emailsSent: 0,
    emailsSkipped: 0,
    emailsFailed: 0,
    chunksPlanned: [],
    chunksDone: [],
    pagesDone: [],
  });
  if (!made) return;
  await createDeliveryStore({ db, tableName: tables.notificationDeliveries! }).putBanners(
    recipients.map((userId) => ({ userId, method: 'banner', notificationId: 'demo-welcome', created: now })),
    content,
    now,
  );
  const count = recipients.length;
  await notifications.tally(
    'demo-welcome',
    'demo',
    { recipients: count, banners: count, emailsSent: 0, emailsSkipped: 0, emailsFailed: 0 },
    false,
  );
};

/**
 * The ingress credential each simulated demo device reports with (docs/decisions/047-live-demo-devices.md), made as
 * the device page's "New credential" makes one: the table keeps its hash, the token is known once. So the token is
 * kept in `file` in the data directory, and made again when the kept one no longer verifies (revoked or rotated in
 * the demo). A missing or retired device gets none, nor one already holding as many credentials as a device may.
 * @returns each device's token, by device id
 */
export const ensureDemoCredentials = async ({
  db,
  tables,
  file,
  deviceIds,
  now = Date.now(),
  log = () => undefined,
}: {
  db: DynamoDBDocumentClient;
  tables: Record<string, string>;
  file: string;
  deviceIds: readonly string[];
  now?: number;
  log?: (line: string) => void;
}): Promise<Map<string, string>> => {
  const kept: Record<string, string> = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, string>,
    (error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return {};
      throw error;
    },
  );
  const verifier = createCredentialVerifier({ db, tableName: tables.deviceCredentials! });
  const store = createCredentialStore({ db, tableName: tables.deviceCredentials! });
  const tokens = new Map<string, string>();
  for (const deviceId of deviceIds) {
    const token = kept[deviceId];
    if (token && (await verifier.verifyCredential(token)) === deviceId) {
      tokens.set(deviceId, token);
      continue;
    }
    const { Item: device } = await db.send(new GetCommand({ TableName: tables.devices, Key: { id: deviceId } }));
    if (!device || device.state === 'retired') continue;
    if ((await store.listAll(deviceId)).length >= MAX_CREDENTIALS_PER_DEVICE) {
      log(`demo device ${deviceId} holds ${MAX_CREDENTIALS_PER_DEVICE} credentials already: it does not report`);
      continue;
    }
    const credentialId = newCredentialId();
    const secret = newSecret();
    await store.put({
      credentialId,
      deviceId,
      created: now,
      createdBy: typeof device.ownerId === 'string' ? device.ownerId : 'demo-data',
      secretHash: hashSecret(secret),
    });
    tokens.set(deviceId, tokenOf(credentialId, secret));
  }
  // Written whole, then renamed; readable by this machine's user alone, as any file holding a secret.
  const keep = { ...kept };
  for (const deviceId of deviceIds) {
    const token = tokens.get(deviceId);
    if (token) keep[deviceId] = token;
    else delete keep[deviceId];
  }
  await writeFile(`${file}.tmp`, `${JSON.stringify(keep, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return tokens;
};
