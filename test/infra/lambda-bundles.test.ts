import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { build } from 'esbuild';
import { BUNDLE_BUDGETS_KB, lambdaEntries } from '../../infra/definitions/bundle-budgets';
import { esbuildOptions, LAMBDA_BUNDLE } from '../../infra/services/lambda-bundling';
import { ServiceFunction } from '../../infra/services/service-function';
import { AREA_NAMES } from '../../shared/contracts/areas';
import { type BuiltBundle, buildBundle, importEnvironment } from '../support/lambda-bundles';

const run = promisify(execFile);
const rootDir = path.resolve(import.meta.dirname, '../..');
const outDir = mkdtempSync(path.join(tmpdir(), 'lambda-bundles-test-'));
const inputsOf = (bundle: BuiltBundle): string[] => Object.keys(Object.values(bundle.metafile.outputs)[0]!.inputs);

// Every function's bundle, built once with the options the CDK deploys (infra/services/lambda-bundling.ts).
const bundles = new Map<string, BuiltBundle>();
beforeAll(async () => {
  for (const { entry } of lambdaEntries()) bundles.set(entry, await buildBundle(rootDir, entry, outDir));
}, 180_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('Lambda bundles (docs/decisions/029-small-lambdas.md)', () => {
  it('has a budget for every function the CDK bundles, and none for a function that no longer exists', () => {
    expect(Object.keys(BUNDLE_BUDGETS_KB).sort()).toEqual(
      lambdaEntries()
        .map(({ entry }) => entry)
        .sort(),
    );
  });

  it('keeps every bundle within its budget', () => {
    const over = [...bundles.values()]
      .filter((bundle) => bundle.bytes / 1024 > BUNDLE_BUDGETS_KB[bundle.entry]!)
      .map(
        (bundle) => `${bundle.entry}: ${Math.round(bundle.bytes / 1024)} KB, budget ${BUNDLE_BUDGETS_KB[bundle.entry]}`,
      );
    expect(over).toEqual([]);
  });

  it("bundles zod's English messages only, not its other locales", () => {
    const withLocales = [...bundles.values()]
      .filter((bundle) => inputsOf(bundle).some((input) => /zod\/v4\/locales\/(?!en\.js)/.test(input)))
      .map((bundle) => bundle.entry);
    expect(withLocales).toEqual([]);
  });

  it("bundles the environment's credentials, not the SDK's default chain (profiles, SSO, STS)", () => {
    const withChain = [...bundles.values()]
      .filter((bundle) =>
        inputsOf(bundle).some((input) =>
          /@aws-sdk\/(credential-provider-(node|ini|sso|web-identity|process)|nested-clients)\//.test(input),
        ),
      )
      .map((bundle) => bundle.entry);
    expect(withChain).toEqual([]);
  });

  it("keeps the live view's IoT and Cognito-identity clients out of the sensor-data worker", () => {
    const worker = inputsOf(bundles.get('functions/sensor-data/worker.ts')!);
    expect(worker.filter((input) => /@aws-sdk\/client-(iot|cognito-identity)\//.test(input))).toEqual([]);
    // The API's live routes do use them: the check above would notice the worker gaining them.
    expect(inputsOf(bundles.get('functions/sensor-data/handler.ts')!).some((i) => i.includes('client-iot/'))).toBe(
      true,
    );
  });

  it('keeps the firmware offer’s S3 client out of the MQTT readings rule, which runs on every device message', () => {
    const rule = inputsOf(bundles.get('functions/data-ingress/iot-readings.ts')!);
    expect(rule.filter((input) => input.includes('@aws-sdk/client-s3/'))).toEqual([]);
    // The HTTPS area offers firmware, so it does hold it: the check above would notice the rule gaining it.
    expect(inputsOf(bundles.get('functions/data-ingress/handler.ts')!).some((i) => i.includes('client-s3/'))).toBe(
      true,
    );
  });

  it('keeps other areas’ contracts (their routes) out of each function, the audit log’s catalogue too', () => {
    const areas = AREA_NAMES as readonly string[];
    // A contract file's area: `devices.ts`, `sensor-data-readings.ts` (the longest area name it starts with).
    const areaOfContract = (input: string): string | undefined => {
      const name = /^shared\/contracts\/([a-z-]+)\.ts$/.exec(input)?.[1];
      return name === undefined
        ? undefined
        : areas.filter((area) => name === area || name.startsWith(`${area}-`)).sort((a, b) => b.length - a.length)[0];
    };
    const foreign = [...bundles.values()].flatMap((bundle) => {
      const own = /^functions\/([a-z-]+)\//.exec(bundle.entry)![1]!;
      return inputsOf(bundle)
        .filter((input) => {
          const area = areaOfContract(input);
          return area !== undefined && area !== own;
        })
        .map((input) => `${bundle.entry}: ${input}`);
    });
    expect(foreign).toEqual([]);
  });

  it('deploys the bundle measured here, with its source map moved out of the code zip and not linked from it', async () => {
    const entry = 'functions/relations/handler.ts';
    const app = new App({ outdir: path.join(outDir, 'cdk.out') });
    const stack = new Stack(app, 'Bundled');
    const functionOf = (id: string, traceSdkCalls: boolean) =>
      new ServiceFunction(stack, id, {
        entry: path.join(rootDir, entry),
        projectRoot: rootDir,
        description: 'the relations API',
        service: 'relations',
        envName: 'dev',
        logs: { retention: RetentionDays.ONE_DAY, removalPolicy: RemovalPolicy.DESTROY },
        bundle: { traceSdkCalls },
      });
    const untraced = functionOf('Relations', false);
    const traced = functionOf('TracedRelations', true);
    const assembly = app.synth();
    const code = Template.fromJSON(assembly.getStackByName('Bundled').template).findResources('AWS::Lambda::Function');
    const assetOf = (fn: ServiceFunction) => {
      const id = stack.getLogicalId(fn.lambda.node.defaultChild as never);
      return path.join(assembly.directory, `asset.${code[id]!.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    };

    expect(readdirSync(assetOf(untraced))).toEqual(['index.mjs']);
    const deployed = readFileSync(path.join(assetOf(untraced), 'index.mjs'), 'utf8');
    expect(deployed).not.toMatch(/sourceMappingURL/);
    expect(statSync(path.join(assetOf(untraced), 'index.mjs')).size).toBe(bundles.get(entry)!.bytes);
    const map = path.join(assembly.directory, 'source-maps', 'Bundled', 'Relations', 'index.mjs.map');
    expect(JSON.parse(readFileSync(map, 'utf8')).sources.some((source: string) => source.endsWith(entry))).toBe(true);

    // The environment's traceSdkCalls reaches the bundler: the traced function's code is the traced bundle.
    const tracedBundle = await buildBundle(rootDir, entry, path.join(outDir, 'traced'), { traceSdkCalls: true });
    expect(statSync(path.join(assetOf(traced), 'index.mjs')).size).toBe(tracedBundle.bytes);
    expect(inputsOf(tracedBundle).some((input) => input.includes('aws-xray-sdk-core/'))).toBe(true);
  }, 120_000);

  it('signs SDK calls with the credentials Lambda puts in the environment', async () => {
    const file = path.join(outDir, 'credentials-probe', 'index.mjs');
    const options = esbuildOptions(rootDir, 'functions/_shared/clients.ts', file);
    await build({
      ...options,
      entryPoints: undefined,
      stdin: {
        contents:
          "import { getDocumentClient } from './functions/_shared/clients.ts';\n" +
          'const credentials = await getDocumentClient().config.credentials();\n' +
          'process.stdout.write(JSON.stringify(credentials));',
        resolveDir: rootDir,
        loader: 'ts',
      },
    });
    expect(Object.keys(LAMBDA_BUNDLE.alias)).toContain('@aws-sdk/credential-provider-node');
    const { stdout } = await run(process.execPath, [file], {
      env: {
        ...importEnvironment(),
        AWS_ACCESS_KEY_ID: 'ASIAPROBE',
        AWS_SECRET_ACCESS_KEY: 'probe-secret',
        AWS_SESSION_TOKEN: 'probe-session',
      },
    });
    expect(JSON.parse(stdout)).toMatchObject({
      accessKeyId: 'ASIAPROBE',
      secretAccessKey: 'probe-secret',
      sessionToken: 'probe-session',
    });
  });

  it('holds none of the X-Ray SDK in the bundles of an environment that does not trace SDK calls (prod, preview)', () => {
    const withTracer = [...bundles.values()]
      .filter((bundle) =>
        inputsOf(bundle).some((input) => /aws-xray-sdk|@aws-lambda-powertools\/tracer|tracing-x-ray/.test(input)),
      )
      .map((bundle) => bundle.entry);
    expect(withTracer).toEqual([]);
  });

  it('sends an X-Ray subsegment for each SDK call, Stripe call and the handler from a bundle of an environment that traces them', async () => {
    const file = path.join(outDir, 'tracing-probe', 'index.mjs');
    // A queue worker's chain (functions/_shared/queue/sqs-worker.ts) whose use case reads one item and looks a
    // person up in Stripe by e-mail address, as billing does.
    await build({
      ...esbuildOptions(rootDir, 'functions/_shared/clients.ts', file, { traceSdkCalls: true }),
      entryPoints: undefined,
      stdin: {
        contents: [
          "import { GetCommand } from '@aws-sdk/lib-dynamodb';",
          "import * as z from 'zod';",
          "import { createStripeClient } from './functions/_shared/billing/stripe-client.ts';",
          "import { getDocumentClient } from './functions/_shared/clients.ts';",
          "import { sqsWorker } from './functions/_shared/queue/sqs-worker.ts';",
          "const stripe = createStripeClient('sk_test_probe', process.env.STRIPE_API_URL);",
          "const handler = sqsWorker('probe', z.object({ id: z.string() }), async ({ id }) => {",
          "  await getDocumentClient().send(new GetCommand({ TableName: 'probe-items', Key: { id } }));",
          "  await stripe.customers.list({ email: 'person@example.com' });",
          '}, { deps: () => ({}) });',
          "const record = { messageId: 'message-1', body: JSON.stringify({ id: 'item-1' }), attributes: {} };",
          "const context = { functionName: 'probe', awsRequestId: 'request-1' };",
          'process.stdout.write(JSON.stringify(await handler({ Records: [record] }, context)));',
        ].join('\n'),
        resolveDir: rootDir,
        loader: 'ts',
      },
    });

    // DynamoDB's answer to GetItem for a key that holds nothing, and Stripe's to a search that finds nobody.
    const upstream = createServer((request, response) => {
      if (request.url?.startsWith('/v1/customers')) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ object: 'list', data: [], has_more: false, url: '/v1/customers' }));
        return;
      }
      response.setHeader('content-type', 'application/x-amz-json-1.0');
      response.end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    // The X-Ray daemon, which Lambda runs beside the function: it takes segment documents over UDP.
    const daemon = createSocket('udp4');
    const documents: Record<string, unknown>[] = [];
    daemon.on('message', (message) => documents.push(JSON.parse(message.toString().split('\n')[1]!)));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    try {
      const traceId = '1-67a1b2c3-0123456789abcdef01234567';
      const { stdout } = await run(process.execPath, [file], {
        env: {
          ...importEnvironment(),
          // What Lambda gives a traced invocation: its runtime, the trace header and the daemon's address.
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
          LAMBDA_TASK_ROOT: '/var/task',
          AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
          _HANDLER: 'index.handler',
          _X_AMZN_TRACE_ID: `Root=${traceId};Parent=53995c3f42cd8ad8;Sampled=1`,
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
          AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
          STRIPE_API_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
          POWERTOOLS_SERVICE_NAME: 'probe',
        },
      });
      // The worker's own log line comes first; its answer is the last line.
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ batchItemFailures: [] });
      // Subsegments arrive one datagram each, a parent carrying the children it closed with.
      const named = (name: string) =>
        documents
          .flatMap(function flat(d): Record<string, unknown>[] {
            return [d, ...((d.subsegments as Record<string, unknown>[] | undefined) ?? []).flatMap(flat)];
          })
          .find((d) => d.name === name);
      const until = Date.now() + 5_000;
      while (!(named('DynamoDB') && named('127.0.0.1') && named('## index.handler')) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      expect(named('DynamoDB')).toMatchObject({
        trace_id: traceId,
        namespace: 'aws',
        aws: { operation: 'GetItem', table_name: 'probe-items' },
        http: { response: { status: 200 } },
      });
      // Stripe's SDK calls through Node's https, which the Tracer captures: a subsegment named by the host
      // (api.stripe.com in the cloud), with the path and not the query, so the address looked up stays out of X-Ray.
      expect(named('127.0.0.1')).toMatchObject({
        trace_id: traceId,
        namespace: 'remote',
        http: { request: { method: 'GET', url: 'http://127.0.0.1/v1/customers' }, response: { status: 200 } },
      });
      expect(JSON.stringify(documents)).not.toMatch(/person(@|%40)example\.com/);
      expect(named('## index.handler')).toMatchObject({
        trace_id: traceId,
        annotations: { ColdStart: true, Service: 'probe', correlation_id: 'request-1' },
      });
    } finally {
      daemon.close();
      upstream.close();
    }
  }, 60_000);

  it('imports every bundle in a fresh Node process with only the variables Lambda would give it', async () => {
    const failures: string[] = [];
    for (const bundle of bundles.values()) {
      const script = 'await import(process.argv[1]);';
      try {
        await run(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(bundle.file).href], {
          env: importEnvironment(),
        });
      } catch (error) {
        failures.push(`${bundle.entry}: ${(error as { stderr?: string }).stderr?.split('\n').slice(0, 6).join(' ')}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
