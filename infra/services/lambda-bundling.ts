import { join } from 'node:path';
import { type BundlingOptions, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * How every Lambda is bundled, written once: the CDK's NodejsFunction takes it through {@link cdkBundling}, and the
 * bundle budget test and `npm run bench` build the same bundles with esbuild directly through
 * {@link esbuildOptions}, so what is measured is what is deployed (docs/decisions/029-small-lambdas.md).
 */
export const LAMBDA_BUNDLE = {
  target: 'node22',
  mainFields: ['module', 'main'],
  /**
   * An ESM bundle has no `require`; some dependencies (bundled CommonJS) still call it.
   * Spelled on one line because esbuild receives it as a single `--banner:js` argument.
   */
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  /**
   * Module → file of the project bundled in its place. Lambda gives a function its credentials in the environment,
   * so the SDK's whole default chain (profiles, SSO, STS, instance metadata) is replaced by the environment source.
   */
  alias: { '@aws-sdk/credential-provider-node': 'functions/_shared/lambda-credentials.ts' },
} as const;

/**
 * What the bundler writes into the code in place of these expressions, per environment. `TRACE_SDK_CALLS`: whether
 * the bundle holds Powertools' Tracer (functions/_shared/tracing.ts); always replaced, so a bundle built with it off
 * carries none of the X-Ray SDK.
 */
export const bundleDefines = ({ traceSdkCalls }: BundleSettings): Record<string, string> => ({
  'process.env.TRACE_SDK_CALLS': JSON.stringify(String(traceSdkCalls)),
});

/** What an environment decides about its bundles (`traceSdkCalls` in infra/definitions/environments.ts). */
export interface BundleSettings {
  traceSdkCalls: boolean;
}

/** The bundle's file name inside the code zip (an ESM bundle). */
export const BUNDLE_FILE = 'index.mjs';

const aliasPaths = (projectRoot: string): Record<string, string> =>
  Object.fromEntries(Object.entries(LAMBDA_BUNDLE.alias).map(([module, file]) => [module, join(projectRoot, file)]));

/**
 * The CDK's bundling of a function. The source map is written beside the bundle without a link to it, then moved out
 * of the code zip into `sourceMapDir` (a separate artifact, next to the cloud assembly): the zip stays small, and
 * Node does not pay `--enable-source-maps` on every cold start.
 */
export const cdkBundling = (projectRoot: string, sourceMapDir: string, settings: BundleSettings): BundlingOptions => ({
  forceDockerBundling: false,
  format: OutputFormat.ESM,
  target: LAMBDA_BUNDLE.target,
  mainFields: [...LAMBDA_BUNDLE.mainFields],
  banner: LAMBDA_BUNDLE.banner,
  minify: true,
  sourceMap: true,
  sourceMapMode: SourceMapMode.EXTERNAL,
  sourcesContent: false,
  define: bundleDefines(settings),
  esbuildArgs: Object.fromEntries(
    Object.entries(aliasPaths(projectRoot)).map(([module, file]) => [`--alias:${module}`, file]),
  ),
  // The SDK is bundled, not taken from the runtime: the code runs with the exact client versions
  // that package-lock.json pins and the tests exercised, whatever the runtime happens to ship.
  externalModules: [],
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir, outputDir) => [
      `mkdir -p "${sourceMapDir}"`,
      `mv "${outputDir}/${BUNDLE_FILE}.map" "${join(sourceMapDir, `${BUNDLE_FILE}.map`)}"`,
    ],
  },
});

/**
 * The same bundle built by esbuild's API (the budget test, the bench); `outfile` is where it is written. By default
 * as production builds it (no SDK tracing), which the budgets hold.
 */
export const esbuildOptions = (
  projectRoot: string,
  entry: string,
  outfile: string,
  settings: BundleSettings = { traceSdkCalls: false },
): BuildOptions => ({
  entryPoints: [join(projectRoot, entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: LAMBDA_BUNDLE.target,
  mainFields: [...LAMBDA_BUNDLE.mainFields],
  banner: { js: LAMBDA_BUNDLE.banner },
  minify: true,
  alias: aliasPaths(projectRoot),
  define: bundleDefines(settings),
  logLevel: 'silent',
});
