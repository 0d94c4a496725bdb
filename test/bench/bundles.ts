import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUNDLE_BUDGETS_KB, BUNDLE_GOAL, lambdaEntries } from '../../infra/definitions/bundle-budgets';
import { buildBundle, bundleContents, importTimes } from '../support/lambda-bundles';

const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);

/**
 * Every Lambda's bundle as deployed (issue 20): its minified size beside its budget and the goal, the time a fresh Node
 * process takes to import it (min and median of BENCH_IMPORT_RUNS runs) beside the goal, and its three largest parts.
 */
export const benchBundles = async (rootDir: string): Promise<void> => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'device-data-bundles-'));
  try {
    const rows = [];
    for (const { name, entry } of lambdaEntries()) {
      const bundle = await buildBundle(rootDir, entry, outDir);
      const times = await importTimes(bundle, IMPORT_RUNS);
      const kilobytes = bundle.bytes / 1024;
      rows.push({
        function: name,
        KB: Math.round(kilobytes),
        'budget KB': BUNDLE_BUDGETS_KB[entry],
        [`≤ ${BUNDLE_GOAL.kilobytes} KB`]: kilobytes <= BUNDLE_GOAL.kilobytes ? 'yes' : 'no',
        'import ms (min)': Math.round(times[0]!),
        'import ms (median)': Math.round(times[Math.floor(times.length / 2)]!),
        [`≤ ${BUNDLE_GOAL.importMs} ms`]: times[0]! <= BUNDLE_GOAL.importMs ? 'yes' : 'no',
        'largest parts (KB)': bundleContents(bundle)
          .slice(0, 3)
          .map(([part, bytes]) => `${part} ${Math.round(bytes / 1024)}`)
          .join(', '),
      });
    }
    console.log(
      `\nLambda bundles (minified, as the CDK builds them) and their cold import in a fresh Node ${process.version} process\n`,
    );
    console.table(rows);

    // What an environment that traces SDK calls pays (traceSdkCalls, docs/decisions/045-sdk-tracing-per-environment.md).
    const entry = 'functions/relations/handler.ts';
    const median = (times: number[]) => Math.round(times[Math.floor(times.length / 2)]!);
    const plain = await buildBundle(rootDir, entry, outDir);
    const traced = await buildBundle(rootDir, entry, path.join(outDir, 'traced'), { traceSdkCalls: true });
    const [plainMs, tracedMs] = [
      median(await importTimes(plain, IMPORT_RUNS)),
      median(await importTimes(traced, IMPORT_RUNS)),
    ];
    console.log(
      `\nWith SDK tracing (an environment's traceSdkCalls, on in dev, dev-1, dev-2): ${entry} ` +
        `${Math.round(plain.bytes / 1024)} → ${Math.round(traced.bytes / 1024)} KB, import median ${plainMs} → ${tracedMs} ms. ` +
        'The budgets above hold the bundles without it (preview, prod).',
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
};
