import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../functions/_shared/dynamodb';
import type { StackInfo } from '../../infra/local/stack-info';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { relationId } from '../../shared/relations/relation-types';

const RECIPIENTS = Number(process.env.BENCH_NOTIFY_RECIPIENTS ?? 10_000);

/**
 * Issue 14: a banner to 10,000 people through the jobs queue and the worker, as staff send it: POST /jobsQueue to
 * an organization's users (a relation audience), then the time until the notification is `sent`, and how many
 * banners its people hold (counted on the deliveries table, not taken from the worker's own tally).
 */
export const benchNotifications = async (info: StackInfo, db: DynamoDBDocumentClient, staffToken: string) => {
  const org = `bench-org-${Date.now()}`;
  const people = Array.from({ length: RECIPIENTS }, (_, i) => `bench-person-${org}-${i}`);
  const seedStarted = performance.now();
  await batchWriteAll(
    db,
    info.tables.users!,
    people.map((id, i) => ({
      PutRequest: {
        Item: {
          id,
          email: `p${i}@bench.example`,
          emailKey: `p${i}@bench.example`,
          displayName: `P ${i}`,
          created: Date.now(),
        },
      },
    })),
    { concurrency: 8 },
  );
  await batchWriteAll(
    db,
    info.tables.relations!,
    people.map((id) => ({
      PutRequest: {
        Item: {
          id: relationId('organization-user', org, id),
          type: 'organization-user',
          referrerId: org,
          referentId: id,
          referrerSort: `organization-user#${id}`,
          referentSort: `organization-user#${org}`,
          created: Date.now(),
          createdBy: 'bench',
        },
      },
    })),
    { concurrency: 8 },
  );
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const api = createAreaClient(AREAS.notifications, {
    baseUrl: `${info.endpoints.gateway}/notifications`,
    getToken: () => staffToken,
  });
  const started = performance.now();
  const queued = await api.queueNotification({
    body: {
      title: 'Bench banner',
      body: '<p>To everyone in the organization</p>',
      methods: ['banner'],
      audience: [`relation:relation-type=organization-user:referrerId=${org}`],
    },
  });
  let status = queued.status;
  const deadline = Date.now() + 300_000;
  while (status !== 'sent' && status !== 'failed' && status !== 'partly-failed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await api.getNotification({ params: { id: queued.id } })).status;
  }
  const seconds = (performance.now() - started) / 1000;
  let arrived = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: info.tables.notificationDeliveries!,
        IndexName: 'byNotification',
        KeyConditionExpression: 'notificationId = :id',
        ExpressionAttributeValues: { ':id': queued.id },
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
      }),
    );
    arrived += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { recipients: RECIPIENTS, seedSeconds, seconds, arrived, status };
};
