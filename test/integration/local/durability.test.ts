import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DEMO_PASSWORD } from '../../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../../infra/local/emulators/listen';
import { StackInfo } from '../../../infra/local/stack-info';
import { AREAS } from '../../../shared/contracts/areas';
import { createAreaClient } from '../../../shared/contracts/client';

/**
 * Issue 19: `kill -9` of the local stack in the middle of writes, then a start on the same data folder: every write
 * that was acknowledged is there, table items, stored objects and waiting messages alike. A stack of its own (not the
 * suite's shared one), without the web app.
 */

const rootDir = path.resolve(import.meta.dirname, '../../..');
const credentials = LOCAL_CREDENTIALS;
/** Each writer's most: the stack is killed long before (the run acknowledged 250 table writes). */
const WRITES = 100_000;

const startStack = async (dataDir: string): Promise<{ child: ChildProcess; info: StackInfo }> => {
  const file = path.join(dataDir, 'stack.json');
  rmSync(file, { force: true });
  const child = spawn(
    process.execPath,
    [
      path.join(rootDir, 'node_modules/tsx/dist/cli.mjs'),
      'infra/local/start.ts',
      '--data-dir',
      dataDir,
      '--ephemeral',
      '--no-web',
    ],
    { cwd: rootDir, stdio: 'ignore', env: { ...process.env, LOG_LEVEL: 'error' } },
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (existsSync(file)) {
      try {
        return { child, info: StackInfo.parse(JSON.parse(readFileSync(file, 'utf8'))) };
      } catch {
        // Written atomically, but a read may race the rename on some file systems: try again.
      }
    }
    if (child.exitCode !== null) throw new Error('The durability stack exited early');
    if (Date.now() > deadline) throw new Error('The durability stack was not ready within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const adminToken = async (info: StackInfo) => {
  const cognito = new CognitoIdentityProviderClient({
    region: info.region,
    endpoint: info.endpoints.cognito,
    credentials,
  });
  const result = await cognito.send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: info.auth.clientId,
      AuthParameters: { USERNAME: 'admin@example.com', PASSWORD: DEMO_PASSWORD },
    }),
  );
  return result.AuthenticationResult!.AccessToken!;
};

const clientsOf = (info: StackInfo, token: string) => ({
  system: createAreaClient(AREAS.system, { baseUrl: `${info.endpoints.gateway}/system`, getToken: () => token }),
  s3: new S3Client({
    region: info.region,
    endpoint: info.endpoints.s3,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  }),
  sqs: new SQSClient({ region: info.region, endpoint: info.endpoints.sqs, credentials }),
});

describe('the local stack after kill -9', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-durability-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged table item, object and waiting message', async () => {
    const first = await startStack(dataDir);
    children.push(first.child);
    const { system, s3, sqs } = clientsOf(first.info, await adminToken(first.info));
    const bucket = first.info.buckets.chartData!;
    // The jobs queue's dead-letter queue has no worker: what waits there waits until read.
    const queue = first.info.queues.jobsDeadLetter!;
    const run = Date.now().toString(36);
    const acknowledged = { items: [] as string[], objects: [] as string[], messages: [] as string[] };

    // Three writers side by side, each one write after another, until the stack dies under them.
    let killed = false;
    const writer = async (write: (i: number) => Promise<void>) => {
      for (let i = 0; !killed && i < WRITES; i++) await write(i);
    };
    const writes = [
      writer(async (i) => {
        const id = `durable-${run}-${i}`;
        await system.createParameter({ body: { id, value: { i } } });
        acknowledged.items.push(id);
      }),
      writer(async (i) => {
        const key = `durable/${run}/${i}.json`;
        await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `{"i":${i}}` }));
        acknowledged.objects.push(key);
      }),
      writer(async (i) => {
        await sqs.send(new SendMessageCommand({ QueueUrl: queue, MessageBody: `${run}-${i}` }));
        acknowledged.messages.push(`${run}-${i}`);
      }),
    ];
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        const { items, objects, messages } = acknowledged;
        if (items.length >= 50 && objects.length >= 10 && messages.length >= 10) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    killed = true;
    process.kill(first.info.pid, 'SIGKILL');
    first.child.kill('SIGKILL');
    await Promise.allSettled(writes);

    const second = await startStack(dataDir);
    children.push(second.child);
    const after = clientsOf(second.info, await adminToken(second.info));
    for (const id of acknowledged.items) {
      expect((await after.system.getParameter({ params: { id } })).id).toBe(id);
    }
    for (const key of acknowledged.objects) {
      const object = await after.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      expect(await object.Body!.transformToString()).toBe(`{"i":${Number(key.split('/').pop()!.split('.')[0])}}`);
    }
    const waiting: string[] = [];
    for (;;) {
      const { Messages = [] } = await after.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: second.info.queues.jobsDeadLetter!,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 60,
        }),
      );
      if (!Messages.length) break;
      waiting.push(...Messages.map((m) => m.Body!));
    }
    expect(waiting.filter((body) => body.startsWith(run))).toEqual(expect.arrayContaining(acknowledged.messages));
    process.kill(second.info.pid, 'SIGTERM');
  }, 240_000);
});
