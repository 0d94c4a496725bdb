import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm test`'s jest part (`npm run test:lanes`) on this 2-core machine in two lanes at once (issue 19: the whole
 * suite well under 30 minutes), each a jest process of its own, so neither core waits on the other's kind of work.
 *
 * - lane `desk`: the integration and end-to-end tests at desk width, in band against the one local stack they share
 *   (their global setup starts it);
 * - lane `phone`: the unit, infra and web projects (the CPU-bound synths and the production build), then the
 *   end-to-end journeys at phone width and the authorization matrix against a second stack of their own (free ports,
 *   its own data directory).
 *
 * Measured on the 2-core machine, both lanes at once: `desk` 18 to 20 minutes, `phone` 19 to 23 (one jest process over
 * everything takes about 55). The doubled load showed real faults of the app, which slower answers make likely: a
 * signed-in panel rendered again after sign-out (fixed in the app's layout), and clicks lost to a page that moved under
 * them after sign-in (docs/frontend-layout.md, "No lost clicks"). Nothing is retried; a browser test that fails prints
 * what its page showed (`test/support/browser.ts`).
 *
 * Each line of a lane's output is prefixed with the lane's name; the exit code is the first failing lane's. Once both
 * lanes are done, the suites and tests that failed are listed again, last: a CI log kept only by its tail still names
 * them (stop 50's failure left only the lane's "FAILED" in view).
 */

const rootDir = path.resolve(import.meta.dirname, '../..');
const JEST = [
  '--max-old-space-size=8192',
  '--experimental-vm-modules',
  path.join(rootDir, 'node_modules/jest/bin/jest.js'),
];

interface Step {
  args: string[];
  env?: Record<string, string>;
}

/** Run by the phone lane against its stack, so that both lanes take about as long. */
const AUTHORIZATION_MATRIX = 'test/integration/authz/';

const LANES: Record<string, Step[]> = {
  desk: [{ args: ['--selectProjects', 'stack', '--runInBand', '--testPathIgnorePatterns', AUTHORIZATION_MATRIX] }],
  phone: [
    { args: ['--selectProjects', 'unit', 'infra', 'web', '--maxWorkers', '1'] },
    // layout.test.ts checks both widths itself; the width means nothing to the matrix's requests.
    {
      args: [
        '--selectProjects',
        'stack',
        '--runInBand',
        'test/e2e/',
        AUTHORIZATION_MATRIX,
        '--testPathIgnorePatterns',
        'test/e2e/layout.test.ts',
      ],
      env: { E2E_WIDTH: '375' },
    },
  ],
};

/** What jest printed of a failure: its `FAIL <project> <file>` line and each failed test's `● <name>` heading. */
const FAILURE = /^(FAIL\s.+|\s*● (?!Console$).+)$/;

const failures = new Map<string, string[]>();
const noteFailure = (lane: string, line: string) => failures.set(lane, [...(failures.get(lane) ?? []), line]);

const runStep = (lane: string, step: Step): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...JEST, ...step.args], {
      cwd: rootDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env },
    });
    const prefix = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          out.write(`[${lane}] ${line}\n`);
          if (FAILURE.test(line)) noteFailure(lane, line.trim());
        }
      });
      stream.on('end', () => {
        if (rest) out.write(`[${lane}] ${rest}\n`);
      });
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const runLane = async (lane: string, steps: Step[]): Promise<number> => {
  const started = Date.now();
  let failed = 0;
  // A failing step does not stop the lane: every suite's result is worth seeing in one run.
  for (const step of steps) {
    const code = await runStep(lane, step);
    if (code) noteFailure(lane, `jest ${step.args.join(' ')} exited with ${code}`);
    failed ||= code;
  }
  console.log(
    `[${lane}] finished in ${((Date.now() - started) / 60_000).toFixed(1)} min, ${failed ? 'FAILED' : 'passed'}`,
  );
  return failed;
};

const lanes = Object.entries(LANES);
const codes = await Promise.all(lanes.map(([lane, steps]) => runLane(lane, steps)));
lanes.forEach(([lane], i) => {
  if (!codes[i]) return;
  console.log(`[${lane}] what failed:`);
  for (const line of new Set(failures.get(lane))) console.log(`[${lane}]   ${line}`);
});
process.exit(codes.find((code) => code !== 0) ?? 0);
