import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { EPHEMERAL_PORTS } from '../../infra/local/ports';
import { startStack } from '../../infra/local/stack';
import { AREAS } from '../../shared/contracts/areas';
import { createAreaClient } from '../../shared/contracts/client';
import { benchDevice } from './bench-device';
import { countStoreCalls } from './store-calls';

const N = Number(process.env.N ?? 800);
const dataDir = mkdtempSync(path.join(tmpdir(), 'perf37-prof-'));
const stack = await startStack({ rootDir: process.cwd(), dataDir, ports: EPHEMERAL_PORTS, web: false });
const { info } = stack;
const cognito = new CognitoIdentityProviderClient({
  region: info.region,
  endpoint: info.endpoints.cognito,
  credentials: LOCAL_CREDENTIALS,
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
const adminToken = await tokenOf('admin@example.com');
const ownerToken = await tokenOf('user@example.com');
const gateway = info.endpoints.gateway;
const alerts = createAreaClient(AREAS.alerts, { baseUrl: `${gateway}/alerts`, getToken: () => ownerToken });
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const post = (credential: string, readings: unknown[]) =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ readings });
    const req = httpRequest(
      `${gateway}/data-ingress/readings`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${credential}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (r) => {
        r.resume();
        r.on('end', () => (r.statusCode === 200 ? resolve() : reject(new Error(String(r.statusCode)))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const stamp = Date.now().toString(36).toUpperCase();
const plain = await Promise.all(
  Array.from({ length: 40 }, (_, i) => benchDevice(stack, { adminToken, ownerToken, serial: `PP${stamp}${i}` })),
);
const watched = await Promise.all(
  Array.from({ length: 40 }, (_, i) => benchDevice(stack, { adminToken, ownerToken, serial: `WW${stamp}${i}` })),
);
for (const d of watched)
  for (const above of [35, 55, 150])
    await alerts.createRule({
      body: {
        name: `R${above}`,
        target: { kind: 'device', id: d.id },
        condition: { kind: 'threshold', measurement: 'pm2_5', above, forSeconds: 0 },
        enabled: true,
      },
    });
await new Promise((r) => setTimeout(r, 1200));
const base = Date.now() - 50 * 60_000;
let tick = 0;
const send = async (fleet: { credential: string }[], count: number) => {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let n = next++; n < count; n = next++) {
        tick += 1;
        await post(fleet[n % fleet.length]!.credential, [
          { timestamp: base + tick * 100, values: { pm2_5: 8 + (tick % 12), temperature: 21 } },
        ]);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
};
await stack.pauseWorkers();
const calls = countStoreCalls();
await send(plain, 200);
await send(watched, 200);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
const out: Record<string, unknown> = {};
for (const [name, fleet] of [
  ['plain', plain],
  ['watched', watched],
  ['plain2', plain],
  ['watched2', watched],
] as const) {
  const c = await calls.perRequest(
    () => post(fleet[0]!.credential, [{ timestamp: base + ++tick * 100, values: { pm2_5: 9, temperature: 21 } }]),
    20,
  );
  const cpu = process.cpuUsage();
  await session.post('Profiler.start');
  const rate = await send(fleet, N);
  const { profile } = await session.post('Profiler.stop');
  const used = process.cpuUsage(cpu);
  writeFileSync(`/tmp/perf37-${name}.cpuprofile`, JSON.stringify(profile));
  out[name] = { rate: rate.toFixed(1), cpuMsPerBatch: ((used.user + used.system) / 1000 / N).toFixed(2), calls: c };
  console.log(name, out[name]);
}
stack.resumeWorkers();
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
