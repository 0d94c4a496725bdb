import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { startStack } from '../../infra/local/stack';

/**
 * `npm run bench`: prints figures, asserts nothing. Each figure of our path stands beside the raw-store
 * baseline measured in the same run on the same emulator. Later issues add ingest and chart figures.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const credentials = LOCAL_CREDENTIALS;

const measure = async (label: string, op: () => Promise<unknown>) => {
  for (let i = 0; i < 50; i++) await op(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
  return { label, opsPerSecond: Math.round(latencies.length / seconds), p50: pct(0.5), p99: pct(0.99) };
};

const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'device-data-bench-'));
const stack = await startStack({ rootDir, dataDir, ports: EPHEMERAL_PORTS, web: false });
try {
  const { info } = stack;
  const cognito = new CognitoIdentityProviderClient({
    region: info.region,
    endpoint: info.endpoints.cognito,
    credentials,
  });
  const tokenOf = async (email: string) =>
    (
      await cognito.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: info.auth.clientId,
          AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
        }),
      )
    ).AuthenticationResult!.AccessToken!;
  const token = await tokenOf('employee@example.com');
  // Not staff: the demo graph makes this user a device user of demo-device-2 (see DEMO_RELATIONS).
  const memberToken = await tokenOf('user@example.com');
  const getOk = async (target: string, bearer: string) => {
    const response = await fetch(target, { headers: { authorization: `Bearer ${bearer}` } });
    if (response.status !== 200) throw new Error(`Unexpected ${response.status} from ${target}`);
    await response.arrayBuffer();
  };
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: info.region, endpoint: info.endpoints.dynamodb, credentials }),
  );
  const url = `${info.endpoints.gateway}/system/parameters/maintenance-mode`;

  const rows = [
    await measure('raw GetItem (dynalite)', () =>
      db.send(new GetCommand({ TableName: info.tables.parameters, Key: { id: 'maintenance-mode' } })),
    ),
    await measure('authorized GET /system/parameters/{id} via local gateway', () => getOk(url, token)),
    await measure('raw Query byReferrer index (dynalite)', () =>
      db.send(
        new QueryCommand({
          TableName: info.tables.relations,
          IndexName: 'byReferrer',
          KeyConditionExpression: 'referrerId = :id',
          ExpressionAttributeValues: { ':id': 'demo-device-2' },
          Limit: 10,
        }),
      ),
    ),
    // Token check, the caller's access version (one GetItem), a cached device-access decision, then the Query.
    await measure('object-checked GET /relations/listByReferrerId/{device}/10 via local gateway', () =>
      getOk(`${info.endpoints.gateway}/relations/listByReferrerId/demo-device-2/10`, memberToken),
    ),
  ];
  console.log(`\nBenchmarks (${REQUESTS} requests, concurrency ${CONCURRENCY}, ${process.version}, 1 process)\n`);
  console.table(rows.map((r) => ({ measure: r.label, 'ops/s': r.opsPerSecond, 'p50 ms': r.p50, 'p99 ms': r.p99 })));
  const ratio = (ours: number, raw: number) =>
    `${((rows[ours]!.opsPerSecond / rows[raw]!.opsPerSecond) * 100).toFixed(0)} %`;
  console.log(`parameter read via gateway / raw GetItem: ${ratio(1, 0)}`);
  console.log(`object-checked relations list via gateway / raw Query: ${ratio(3, 2)}`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
