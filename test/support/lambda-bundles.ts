import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { TABLES } from '../../functions/_shared/tables';
import { BUCKETS, QUEUES } from '../../infra/definitions/storage';
import { type BundleSettings, esbuildOptions } from '../../infra/services/lambda-bundling';

const run = promisify(execFile);

/** A function's bundle as the CDK builds it: where it was written, its size and what went into it. */
export interface BuiltBundle {
  entry: string;
  file: string;
  bytes: number;
  metafile: Metafile;
}

/** Builds the entry's bundle with the deployed options (production's by default) into `outDir`. */
export const buildBundle = async (
  projectRoot: string,
  entry: string,
  outDir: string,
  settings?: BundleSettings,
): Promise<BuiltBundle> => {
  const file = path.join(outDir, entry.replace(/[/.]/g, '-'), 'index.mjs');
  const result = await build({ ...esbuildOptions(projectRoot, entry, file, settings), metafile: true });
  return { entry, file, bytes: statSync(file).size, metafile: result.metafile };
};

/** The packages (or project folders) in a bundle, by bytes they add to it, largest first. */
export const bundleContents = (bundle: BuiltBundle): [string, number][] => {
  const output = Object.values(bundle.metafile.outputs)[0]!;
  const byPackage = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 2).join('/');
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage].sort((a, b) => b[1] - a[1]);
};

/**
 * Placeholder values for every variable a function reads when it loads (names of tables, buckets and queues, the
 * token issuer, …): enough for its module to import, never reached over the network.
 */
export const importEnvironment = (): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  // Node 20 here, Node 22 in Lambda: the SDK's warning about Node 20 would only add noise to the figures.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  ENV_NAME: 'dev',
  AUTH_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_bench',
  AUTH_CLIENT_IDS: 'bench',
  CORS_ORIGINS: 'https://app.example.com',
  WEB_ORIGIN: 'https://app.example.com',
  USER_POOL_ID: 'eu-west-1_bench',
  IDENTITY_POOL_ID: 'eu-west-1:00000000-0000-0000-0000-000000000000',
  MAIL_FROM: 'bench@example.com',
  STRIPE_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:bench',
  STRIPE_WEBHOOK_SECRET: 'whsec_bench',
  STRIPE_MODE: 'test',
  WEBHOOK_SECRETS_KEY_ARN: 'arn:aws:kms:eu-west-1:000000000000:key/bench',
  WEBHOOK_TARGETS: 'public',
  AREA_API_URL: 'https://api.example.com/notifications',
  IOT_ARN_PREFIX: 'arn:aws:iot:eu-west-1:000000000000',
  READINGS_RULE_NAME: 'bench_readings',
  FIRMWARE_STATUS_RULE_NAME: 'bench_firmware_status',
  LINKING_TRUSTED_PROVIDERS: '["Google"]',
  SIGN_IN_PROVIDERS: '[{"name":"Google","label":"Google"}]',
  ...Object.fromEntries(Object.values(TABLES).map((table) => [table.envVar, 'bench'])),
  ...Object.fromEntries(Object.values(BUCKETS).map((bucket) => [bucket.envVar, 'bench'])),
  ...Object.fromEntries(
    Object.values(QUEUES).map((queue) => [queue.envVar, 'https://sqs.eu-west-1.amazonaws.com/000000000000/bench']),
  ),
});

/**
 * Milliseconds a fresh Node process takes to import the bundle (its module evaluation, as at a Lambda cold start
 * before the first event), once per run, sorted. Each run is its own process, so nothing is cached between them.
 */
export const importTimes = async (bundle: BuiltBundle, runs: number): Promise<number[]> => {
  const script =
    'const t = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t));';
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script, pathToFileURL(bundle.file).href],
      {
        env: importEnvironment(),
      },
    );
    times.push(Number(stdout));
  }
  return times.sort((a, b) => a - b);
};
