import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { newSecret } from '../../functions/integrations/domain/webhook-rules';
import { createLocalSecretBox } from '../../functions/integrations/store/secret-box';
import { createWebhookStore } from '../../functions/integrations/store/webhook-store';
import { WEBHOOK_EVENT_TYPES } from '../../shared/contracts/webhook-events';

/** The demo organization's webhook: its id is fixed, so every start finds and re-points it. */
export const DEMO_WEBHOOK_ID = 'wh_demoorg0000000000001';
export const DEMO_WEBHOOK_ORGANIZATION = 'demo-org-1';
/** Its owner: the demo organization's manager. */
const DEMO_WEBHOOK_OWNER = 'approved@example.com';

/**
 * The local stack's key for sealing webhooks' secrets (what KMS does in the cloud): 32 random bytes, made once per data
 * folder and kept in it, so the secrets sealed with it open after a restart.
 */
export const ensureLocalSecretsKey = async (file: string): Promise<string> => {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const key = randomBytes(32).toString('base64');
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
};

/**
 * The demo organization's webhook, pointing at the local receiver (infra/local/webhook-receiver.ts): made on the
 * first start with every event type and a secret the receiver reads from `secretFile`; later starts point it at the
 * receiver's address again (the tests' stack takes a free port each time) and leave the rest as the person left it.
 */
export const ensureDemoWebhook = async ({
  db,
  tables,
  localKey,
  secretFile,
  url,
  now = Date.now(),
}: {
  db: DynamoDBDocumentClient;
  tables: Record<string, string>;
  localKey: string;
  secretFile: string;
  url: string;
  now?: number;
}): Promise<'made' | 'kept'> => {
  const store = createWebhookStore({ db, tableName: tables.webhooks! });
  const box = createLocalSecretBox(localKey);
  const existing = await store.get(DEMO_WEBHOOK_ID);
  if (existing && existsSync(secretFile)) {
    if (existing.url !== url) await store.change(DEMO_WEBHOOK_ID, { url, updated: now }, existing.updated);
    return 'kept';
  }
  const owner = (
    await db.send(
      new QueryCommand({
        TableName: tables.users!,
        IndexName: 'byEmail',
        KeyConditionExpression: 'emailKey = :email',
        ExpressionAttributeValues: { ':email': DEMO_WEBHOOK_OWNER },
      }),
    )
  ).Items?.[0]?.id as string | undefined;
  if (!owner) throw new Error(`No demo account ${DEMO_WEBHOOK_OWNER} to own the demo webhook`);
  const secret = newSecret();
  if (existing) await store.remove(DEMO_WEBHOOK_ID);
  await store.create({
    id: DEMO_WEBHOOK_ID,
    url,
    events: [...WEBHOOK_EVENT_TYPES],
    targetKind: 'organization',
    targetId: DEMO_WEBHOOK_ORGANIZATION,
    description: 'The demo receiver of npm start',
    status: 'enabled',
    secret: await box.seal(secret, DEMO_WEBHOOK_ID),
    created: now,
    createdBy: owner,
    updated: now,
  });
  await writeFile(secretFile, `${secret}\n`, { mode: 0o600 });
  return 'made';
};
