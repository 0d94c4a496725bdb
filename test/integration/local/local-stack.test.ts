import { get } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  ListGroupsCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HeadBucketCommand } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import mqtt from 'mqtt';
import { createReadingsStore } from '../../../functions/_shared/sensor-data/readings-store';
import { TABLES } from '../../../functions/_shared/tables';
import { MIN_COMPRESSION_SIZE_BYTES } from '../../../infra/definitions/services';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../../infra/local/demo-data';
import { DEMO_READING_INTERVAL_MS, topUpDemoReadings } from '../../../infra/local/demo-readings';
import { LOCAL_CREDENTIALS } from '../../../infra/local/emulators/listen';
import { startSqsPoller } from '../../../infra/local/sqs-poller';
import { GROUPS } from '../../../shared/auth/groups';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { localIdentityId } from '../../../shared/iot/realtime';
import { freshDevice } from '../../support/sensor-data';
import {
  apiAs,
  cognitoClient,
  documentClient,
  s3Client,
  signIn,
  sqsClient,
  stack,
  subOfToken,
  tokenOf,
  uniqueId,
} from '../../support/stack';

const credentials = LOCAL_CREDENTIALS;

describe('the local stack', () => {
  it('answers /health with 200 only when every emulator is up, and names them', async () => {
    const response = await fetch(`${stack().endpoints.gateway}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { services: Record<string, string> };
    expect(Object.keys(body.services).sort()).toEqual(
      ['cognito', 'cognito-local', 'demo-idp', 'dynamodb', 'fauxqs', 'mqtt', 'rum', 'ses', 'stripe'].sort(),
    );
    expect(Object.values(body.services).every((s) => s === 'up')).toBe(true);
  });

  it(`compresses an area's answers from ${MIN_COMPRESSION_SIZE_BYTES} bytes as API Gateway does: gzip or deflate, as the client accepts`, async () => {
    const raw = (path: string, acceptEncoding?: string) =>
      new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
        get(
          `${stack().endpoints.gateway}${path}`,
          { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
            );
            response.on('error', reject);
          },
        ).on('error', reject);
      });
    // The tiers table is a few kB of JSON; a missing device's 404 is a few dozen bytes.
    const plain = await raw('/sensor-data/tiers');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(MIN_COMPRESSION_SIZE_BYTES);
    const tiers = JSON.parse(plain.body.toString('utf8'));

    const gzipped = await raw('/sensor-data/tiers', 'br, gzip, deflate');
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(gunzipSync(gzipped.body).toString('utf8'))).toEqual(tiers);

    const deflated = await raw('/sensor-data/tiers', 'deflate, gzip;q=0');
    expect(deflated.encoding).toBe('deflate');
    expect(JSON.parse(inflateSync(deflated.body).toString('utf8'))).toEqual(tiers);

    // Brotli is CloudFront's, not API Gateway's.
    expect((await raw('/sensor-data/tiers', 'br')).encoding).toBeUndefined();
    const small = await raw(`/devices/devices/${uniqueId('missing')}`, 'gzip');
    expect(small.body.length).toBeLessThan(MIN_COMPRESSION_SIZE_BYTES);
    expect(small.encoding).toBeUndefined();
  });

  it('creates every table of the shared definitions with their keys', async () => {
    const dynamo = new DynamoDBClient({ region: stack().region, endpoint: stack().endpoints.dynamodb, credentials });
    for (const [key, table] of Object.entries(TABLES)) {
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: stack().tables[key] }));
      expect(Table?.KeySchema).toContainEqual({ AttributeName: table.partitionKey.name, KeyType: 'HASH' });
    }
  });

  it('creates the spec buckets (local reuses the dev chart-data bucket), ours, and the jobs queue with its dead-letter queue', async () => {
    expect(stack().buckets).toEqual({
      chartData: 'sensor-data-api-dev-chartdata',
      datasets: 'datasets-local-files',
      exports: 'sensor-data-local-exports',
      logos: 'organizations-local-logofiles',
      releases: 'code-releases-local-artifacts',
      userBackups: 'users-local-backups',
    });
    const s3 = s3Client();
    for (const bucket of Object.values(stack().buckets)) await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    const sqs = sqsClient();
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: stack().queues.jobs, AttributeNames: ['RedrivePolicy'] }),
    );
    expect(JSON.parse(Attributes?.RedrivePolicy ?? '{}')).toMatchObject({ maxReceiveCount: 5 });
  });

  it('creates the six groups with the precedences of the shared definitions', async () => {
    const { Groups } = await cognitoClient().send(new ListGroupsCommand({ UserPoolId: stack().auth.userPoolId }));
    expect(Groups?.map((g) => [g.GroupName, g.Precedence]).sort()).toEqual(
      GROUPS.map((g) => [g.name, g.precedence]).sort(),
    );
  });

  it('seeds one demo account per group and one without a group, whose tokens carry the groups', async () => {
    const verify = createTokenVerifier({ issuer: stack().auth.issuer, clientIds: [stack().auth.clientId] });
    for (const account of DEMO_ACCOUNTS) {
      const caller = await verify((await signIn(account.email)).accessToken);
      expect(caller.groups).toEqual('group' in account ? [account.group] : []);
    }
  });

  describe('the Cognito compatibility layer', () => {
    it('refuses sign-in to a disabled user, and allows it again once enabled', async () => {
      const { userPoolId, clientId } = stack().auth;
      const username = 'nogroup@example.com';
      const attempt = () =>
        cognitoClient().send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: clientId,
            AuthParameters: { USERNAME: username, PASSWORD: DEMO_PASSWORD },
          }),
        );
      await cognitoClient().send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: username }));
      try {
        await expect(attempt()).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
      } finally {
        await cognitoClient().send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: username }));
      }
      await expect(attempt()).resolves.toHaveProperty('AuthenticationResult.AccessToken');
    });

    it('serves GetTokensFromRefreshToken, which current Amplify uses to refresh', async () => {
      const { refreshToken } = await signIn('user@example.com');
      const result = await cognitoClient().send(
        new GetTokensFromRefreshTokenCommand({ ClientId: stack().auth.clientId, RefreshToken: refreshToken }),
      );
      const verify = createTokenVerifier({ issuer: stack().auth.issuer, clientIds: [stack().auth.clientId] });
      await expect(verify(result.AuthenticationResult!.AccessToken!)).resolves.toMatchObject({
        groups: ['Authenticated_users'],
      });
    });

    it('enforces the password policy on sign-up', async () => {
      await expect(
        cognitoClient().send(
          new SignUpCommand({
            ClientId: stack().auth.clientId,
            Username: `${uniqueId('weak')}@example.com`,
            Password: 'short',
          }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    });
  });

  it('runs the SQS poller as Lambda event sources do: successes deleted, partial failures redelivered', async () => {
    const sqs = sqsClient();
    const seen: string[] = [];
    let failOnce = true;
    // A queue of its own: the stack's notifications worker consumes the jobs queue.
    const { QueueUrl: queueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uniqueId('poller') }));
    const poller = startSqsPoller({
      sqs,
      queueUrl: queueUrl!,
      queueArn: 'arn:aws:sqs:local:000000000000:poller',
      waitSeconds: 1,
      handler: async (event) => {
        seen.push(...event.Records.map((r) => r.body));
        const failures = event.Records.filter((r) => r.body === 'flaky' && failOnce).map((r) => ({
          itemIdentifier: r.messageId,
        }));
        if (failures.length) failOnce = false;
        return { batchItemFailures: failures };
      },
    });
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'steady' }));
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'flaky' }));
      // The poller keeps the failed message; it comes back after the visibility timeout, so shorten the wait
      // by only checking that the successful one was handled once and the flaky one was handled at least once.
      const deadline = Date.now() + 10_000;
      while (!(seen.includes('steady') && seen.includes('flaky')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen.filter((b) => b === 'steady')).toHaveLength(1);
      expect(seen).toContain('flaky');
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      // The failed message is still in the queue (in flight), not deleted.
      expect(Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)).toBeGreaterThanOrEqual(1);
    } finally {
      await poller.stop();
      await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    }
  });

  it('works batches side by side, but never two of one FIFO group at once, and each group in order', async () => {
    const sqs = sqsClient();
    const { QueueUrl: queueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `${uniqueId('poller')}.fifo`, Attributes: { FifoQueue: 'true' } }),
    );
    const busy = new Map<string, number>();
    const worked: string[] = [];
    let overlapInGroup = false;
    let mostAtOnce = 0;
    const poller = startSqsPoller({
      sqs,
      queueUrl: queueUrl!,
      queueArn: 'arn:aws:sqs:local:000000000000:poller.fifo',
      batchSize: 1,
      concurrency: 3,
      handler: async (event) => {
        const group = event.Records[0]!.attributes.MessageGroupId!;
        if (busy.get(group)) overlapInGroup = true;
        busy.set(group, (busy.get(group) ?? 0) + 1);
        mostAtOnce = Math.max(
          mostAtOnce,
          [...busy.values()].reduce((a, b) => a + b, 0),
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
        worked.push(event.Records[0]!.body);
        busy.set(group, busy.get(group)! - 1);
        return { batchItemFailures: [] };
      },
    });
    try {
      const bodies = ['a', 'b'].flatMap((group) => [1, 2, 3].map((n) => ({ group, body: `${group}${n}` })));
      for (const { group, body } of bodies) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: body,
            MessageGroupId: group,
            MessageDeduplicationId: body,
          }),
        );
      }
      const deadline = Date.now() + 15_000;
      while (worked.length < bodies.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(worked.filter((b) => b.startsWith('a'))).toEqual(['a1', 'a2', 'a3']);
      expect(worked.filter((b) => b.startsWith('b'))).toEqual(['b1', 'b2', 'b3']);
      expect(overlapInGroup).toBe(false);
      expect(mostAtOnce).toBe(2);
    } finally {
      await poller.stop();
      await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    }
  });

  it('runs an MQTT broker that devices reach over TCP with their credential and browsers over WebSocket', async () => {
    const { id, credential } = await freshDevice();
    const device = await mqtt.connectAsync(stack().endpoints.mqtt, {
      username: id,
      password: credential,
      clientId: id,
    });
    const token = await tokenOf('user@example.com');
    const browser = await mqtt.connectAsync(stack().endpoints.mqttWs, {
      username: localIdentityId(subOfToken(token)),
      password: token,
    });
    try {
      // A device publishes its own status and subscribes to nothing, as its cloud policy (decision 031).
      await device.publishAsync(`devices/${id}/status`, JSON.stringify({ online: true }), { qos: 1 });
      await expect(device.subscribeAsync(`devices/${id}/#`)).rejects.toThrow(/Subscribe error/);
      expect(device.connected).toBe(true);
      expect(browser.connected).toBe(true);
    } finally {
      await Promise.all([browser.endAsync(), device.endAsync()]);
    }
    // Anyone else is refused (infra/local/mqtt-auth.ts).
    await expect(mqtt.connectAsync(stack().endpoints.mqtt, { reconnectPeriod: 0 })).rejects.toThrow();
  });

  it('tops up a demo device from its newest reading to now on a restart, and leaves a retired one alone', async () => {
    const kept = await freshDevice({ productLine: 'al30' });
    const retired = await freshDevice({ productLine: 'al30' });
    const now = Date.now();
    const fiveHoursAgo = Math.floor((now - 5 * 3_600_000) / DEMO_READING_INTERVAL_MS) * DEMO_READING_INTERVAL_MS;
    const readings = createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! });
    for (const device of [kept, retired]) {
      await readings.write(device.id, [{ timestamp: fiveHoursAgo, values: { pm2_5: 1 } }], now);
    }
    await apiAs('devices', retired.ownerToken).retire({ params: { id: retired.id } });

    const deps = {
      db: documentClient(),
      sqs: sqsClient(),
      tables: stack().tables,
      sensorDataQueueUrl: stack().queues.sensorData!,
      now,
    };
    await topUpDemoReadings(
      deps,
      [kept, retired].map((d) => ({ deviceId: d.id, profile: 'air' as const })),
    );

    const since = { from: fiveHoursAgo, to: now, order: 'asc' as const, limit: 100 };
    const filled = await readings.query(kept.id, since);
    // Every 10 minutes after the newest reading, up to the last grid point before now.
    expect(filled.length).toBe(1 + Math.floor((now - fiveHoursAgo) / DEMO_READING_INTERVAL_MS));
    expect(filled.slice(1).every((r, i) => r.timestamp - filled[i]!.timestamp === DEMO_READING_INTERVAL_MS)).toBe(true);
    expect(Object.keys(filled.at(-1)!.values).sort()).toEqual(['co2', 'humidity', 'pm10', 'pm2_5', 'temperature']);
    expect(await readings.query(retired.id, since)).toHaveLength(1);
  });
});
