import path from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RunningStack } from '../../infra/local/stack';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import { fillPath } from '../../shared/contracts/define-route';
import { type FreshUser, freshUser } from '../support/people';
import { freshDevice, ingest, setTier, type TestDevice } from '../support/sensor-data';
import { apiAs } from '../support/stack';

/**
 * The load bench (issue 19): simulated people on the local stack, each signed in once, each with a device of its
 * own (Tier 2, a day of 5-minute readings, an API key), working through a mix of what people do in the app, closed
 * loop (the next request when the last is answered, after an optional think time). Two runs back to back; req/s,
 * p50/p95/p99 and errors per kind, and the process's memory (RSS, and heap used after a full collection) before and
 * after each run. Prints nothing itself and asserts nothing: returns the figures for test/bench/run.ts.
 */

export interface LoadOptions {
  people: number;
  seconds: number;
  /** Mean pause between one person's actions, ms (uniform 0 to twice this); 0: as fast as answers come. */
  thinkMs: number;
  /** A folder for heap snapshots before and after each run (none without it). */
  snapshotDir?: string;
}

export const LOAD_KINDS = [
  'dashboard',
  'device page',
  'live view',
  'download',
  'API key',
  'admin',
  'billing',
  'notifications',
] as const;
type Kind = (typeof LOAD_KINDS)[number];

/** Relative frequency of each action; `admin` only for the staff among the people (one in ten). */
const WEIGHTS: Record<Kind, number> = {
  dashboard: 20,
  'device page': 25,
  'live view': 10,
  download: 5,
  'API key': 10,
  admin: 0,
  billing: 10,
  notifications: 10,
};
const STAFF_WEIGHTS: Record<Kind, number> = { ...WEIGHTS, admin: 40 };
/** Starts per person and run: twice this stays under the 30 an hour a person may start. */
const EXPORTS_PER_RUN = 12;
const DAY_MS = 86_400_000;
const FIVE_MINUTES = 300_000;

interface Person {
  user: FreshUser;
  staff: boolean;
  device: TestDevice;
  apiKey: string;
  exportsStarted: number;
  lastExport?: string;
}

/** One action's requests, each timed; an answer outside 2xx is an error (the first few are kept to print). */
class Tally {
  readonly latencies = new Map<Kind, number[]>(LOAD_KINDS.map((k) => [k, []]));
  readonly errors = new Map<Kind, number>(LOAD_KINDS.map((k) => [k, 0]));
  readonly samples: string[] = [];
  record(kind: Kind, ms: number, error?: string) {
    this.latencies.get(kind)!.push(ms);
    if (error === undefined) return;
    this.errors.set(kind, this.errors.get(kind)! + 1);
    if (this.samples.length < 8) this.samples.push(`${kind}: ${error}`);
  }
}

const gcNow = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  // Without --expose-gc: the flag set at run time, and the function taken from a fresh context that sees it.
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

export interface MemoryFigures {
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** RSS and heap after full collections (twice: weak references and finalizers free more on the second). */
export const memoryNow = async (): Promise<MemoryFigures> => {
  await new Promise((resolve) => setTimeout(resolve, 500));
  gcNow();
  await new Promise((resolve) => setImmediate(resolve));
  gcNow();
  const m = process.memoryUsage();
  return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed), externalMiB: mib(m.external) };
};

const pick = (weights: Record<Kind, number>): Kind => {
  const total = LOAD_KINDS.reduce((sum, k) => sum + weights[k], 0);
  let r = Math.random() * total;
  for (const kind of LOAD_KINDS) {
    r -= weights[kind];
    if (r < 0) return kind;
  }
  return 'dashboard';
};

const routeUrl = <A extends AreaName>(
  gateway: string,
  area: A,
  route: keyof (typeof AREAS)[A]['routes'],
  params: Record<string, unknown> = {},
  query: Record<string, string | number> = {},
) => {
  const { path: template } = (AREAS[area].routes as Record<string, { path: string }>)[route as string]!;
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `${gateway}/${area}${fillPath(template, params)}${search ? `?${search}` : ''}`;
};

/** Makes the people, one at a time in a few lanes (the identity provider is the slow part). */
const makePeople = async (count: number): Promise<Person[]> => {
  const people: Person[] = [];
  let next = 0;
  const now = Date.now();
  const readings = Array.from({ length: DAY_MS / FIVE_MINUTES }, (_, i) => ({
    timestamp: now - DAY_MS + i * FIVE_MINUTES,
    values: { pm2_5: 5 + (i % 40), co2: 420 + (i % 200), temperature: 20 + (i % 7) },
  }));
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < count; i = next++) {
        const staff = i % 10 === 9;
        const user = await freshUser({ prefix: 'load', groups: staff ? ['Employees'] : [] });
        const device = await freshDevice({ ownerToken: user.token });
        await setTier(device.id, 'tier2');
        await ingest(device, readings);
        const { key } = await apiAs('sensor-data', user.token).createApiKey({ body: { name: 'load' } });
        people.push({ user, staff, device, apiKey: key, exportsStarted: 0 });
      }
    }),
  );
  return people;
};

const runOnce = async (gateway: string, people: Person[], options: LoadOptions) => {
  const tally = new Tally();
  const deadline = performance.now() + options.seconds * 1000;
  const call = async (
    kind: Kind,
    person: Person,
    url: string,
    init: { method?: string; body?: unknown; apiKey?: boolean } = {},
  ): Promise<unknown> => {
    const headers: Record<string, string> = init.apiKey
      ? { 'x-api-key': person.apiKey }
      : { authorization: `Bearer ${person.user.token}` };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      const ok = response.status >= 200 && response.status < 300;
      tally.record(
        kind,
        performance.now() - started,
        ok
          ? undefined
          : `${init.method ?? 'GET'} ${url.slice(gateway.length)} → ${response.status} ${text.slice(0, 160)}`,
      );
      return ok && text ? JSON.parse(text) : undefined;
    } catch (error) {
      tally.record(kind, performance.now() - started, `${url.slice(gateway.length)} → ${String(error)}`);
      return undefined;
    }
  };

  const actions: Record<Kind, (p: Person) => Promise<void>> = {
    dashboard: async (p) => {
      await Promise.all([
        call('dashboard', p, routeUrl(gateway, 'devices', 'listMine', {}, { limit: 20 })),
        call('dashboard', p, routeUrl(gateway, 'organizations', 'listMine', {}, { limit: 20 })),
        call('dashboard', p, routeUrl(gateway, 'notifications', 'listUserNotifications', { id: p.user.id, x: 5 })),
      ]);
      await call('dashboard', p, routeUrl(gateway, 'devices', 'map', {}, { limit: 100 }));
    },
    'device page': async (p) => {
      const id = p.device.id;
      const to = Date.now();
      await Promise.all([
        call('device page', p, routeUrl(gateway, 'devices', 'get', { id })),
        call('device page', p, routeUrl(gateway, 'sensor-data', 'dataSummary', { id })),
        call(
          'device page',
          p,
          routeUrl(gateway, 'sensor-data', 'series', { id }, { from: to - DAY_MS, to, width: 800 }),
        ),
        call('device page', p, routeUrl(gateway, 'sensor-data', 'listReadings', { id }, { limit: 10 })),
      ]);
    },
    'live view': async (p) => {
      const id = p.device.id;
      const watch = (await call('live view', p, routeUrl(gateway, 'sensor-data', 'watchLive', { id }), {
        method: 'PUT',
        body: {},
      })) as { identityId?: string } | undefined;
      if (!watch?.identityId) return;
      await call(
        'live view',
        p,
        routeUrl(gateway, 'sensor-data', 'unwatchLive', { id }, { identityId: watch.identityId }),
        { method: 'DELETE' },
      );
    },
    download: async (p) => {
      if (p.exportsStarted >= EXPORTS_PER_RUN) {
        await call('download', p, routeUrl(gateway, 'sensor-data', 'listMyExports', {}, { limit: 10 }));
        return;
      }
      p.exportsStarted++;
      const job = (await call('download', p, routeUrl(gateway, 'sensor-data', 'createExport', { id: p.device.id }), {
        method: 'POST',
        body: { format: 'csv', from: Date.now() - DAY_MS },
      })) as { id?: string } | undefined;
      if (!job?.id) return;
      // Polled as the download panel polls it, until done (or the run ends).
      for (let i = 0; i < 40 && performance.now() < deadline; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const state = (await call(
          'download',
          p,
          routeUrl(gateway, 'sensor-data', 'getExport', { exportId: job.id }),
        )) as { status?: string } | undefined;
        if (!state || state.status === 'done' || state.status === 'failed') break;
      }
    },
    'API key': async (p) => {
      const id = p.device.id;
      await call('API key', p, routeUrl(gateway, 'sensor-data', 'apiReadings', { id }, { limit: 50 }), {
        apiKey: true,
      });
      const to = Date.now();
      await call('API key', p, routeUrl(gateway, 'sensor-data', 'apiSeries', { id }, { from: to - DAY_MS, to }), {
        apiKey: true,
      });
    },
    admin: async (p) => {
      await Promise.all([
        call('admin', p, routeUrl(gateway, 'users', 'listUsers', {}, { limit: 20 })),
        call('admin', p, routeUrl(gateway, 'relations', 'listPage', { x: 20 })),
        call('admin', p, routeUrl(gateway, 'system', 'listParameters')),
      ]);
    },
    billing: async (p) => {
      await Promise.all([
        call('billing', p, routeUrl(gateway, 'api', 'productsList'), { method: 'POST', body: {} }),
        call('billing', p, routeUrl(gateway, 'api', 'subscriptionsListByDevice'), {
          method: 'POST',
          body: { deviceId: p.device.id },
        }),
      ]);
    },
    notifications: async (p) => {
      await Promise.all([
        call('notifications', p, routeUrl(gateway, 'notifications', 'listUserNotifications', { id: p.user.id, x: 20 })),
        call('notifications', p, routeUrl(gateway, 'notifications', 'getPreferences')),
      ]);
    },
  };

  const started = performance.now();
  await Promise.all(
    people.map(async (person) => {
      const weights = person.staff ? STAFF_WEIGHTS : WEIGHTS;
      while (performance.now() < deadline) {
        await actions[pick(weights)](person);
        if (options.thinkMs > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * options.thinkMs));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const person of people) person.exportsStarted = 0;
  return { tally, seconds };
};

export interface LoadRow {
  kind: string;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

const rowsOf = ({ tally, seconds }: Awaited<ReturnType<typeof runOnce>>): LoadRow[] => {
  const row = (kind: string, latencies: number[], errors: number): LoadRow => {
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
    return {
      kind,
      requests: sorted.length,
      perSecond: Math.round((sorted.length / seconds) * 10) / 10,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      errors,
    };
  };
  const rows = LOAD_KINDS.map((k) => row(k, tally.latencies.get(k)!, tally.errors.get(k)!));
  return [
    ...rows,
    row(
      'all',
      [...tally.latencies.values()].flat(),
      rows.reduce((sum, r) => sum + r.errors, 0),
    ),
  ];
};

export interface LoadResult {
  people: number;
  staff: number;
  seconds: number;
  setupSeconds: number;
  runs: { rows: LoadRow[]; errorSamples: string[]; before: MemoryFigures; after: MemoryFigures }[];
}

export const benchLoad = async (stack: RunningStack, options: LoadOptions): Promise<LoadResult> => {
  // The test helpers (fresh people, devices, tiers) find the stack through the file it writes.
  process.env.TEST_STACK_FILE ??= path.join(stack.info.dataDir, 'stack.json');
  const setupStarted = performance.now();
  const people = await makePeople(options.people);
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  const runs: LoadResult['runs'] = [];
  // BENCH_LOAD_SNAPSHOTS={folder}: a heap snapshot after each measurement, to compare in Chrome's DevTools.
  const snapshot = (name: string) => {
    if (options.snapshotDir) writeHeapSnapshot(path.join(options.snapshotDir, `load-${name}.heapsnapshot`));
  };
  for (let i = 0; i < 2; i++) {
    const before = await memoryNow();
    if (i === 0) snapshot('before');
    const run = await runOnce(stack.info.endpoints.gateway, people, options);
    const after = await memoryNow();
    snapshot(`after-${i + 1}`);
    runs.push({ rows: rowsOf(run), errorSamples: run.tally.samples, before, after });
  }
  return {
    people: people.length,
    staff: people.filter((p) => p.staff).length,
    seconds: options.seconds,
    setupSeconds,
    runs,
  };
};

/** The tables test/bench/run.ts prints. */
export const printLoad = (result: LoadResult) => {
  console.log(
    `\nLoad: ${result.people} people (${result.staff} staff) for ${result.seconds} s, twice back to back, closed loop, on the local stack in this process (people made in ${result.setupSeconds.toFixed(0)} s)\n`,
  );
  result.runs.forEach((run, i) => {
    console.log(`Run ${i + 1}`);
    console.table(
      run.rows.map((r) => ({
        kind: r.kind,
        requests: r.requests,
        'req/s': r.perSecond,
        'p50 ms': r.p50,
        'p95 ms': r.p95,
        'p99 ms': r.p99,
        errors: r.errors,
      })),
    );
    for (const sample of run.errorSamples) console.log(`  error: ${sample}`);
  });
  const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
  const [first, second] = result.runs as [LoadResult['runs'][number], LoadResult['runs'][number]];
  console.log('Memory of this process (heap used after a full collection; RSS as the OS counts it)');
  console.table([
    { moment: 'before run 1', 'heap MiB': first.before.heapUsedMiB, 'RSS MiB': first.before.rssMiB },
    { moment: 'after run 1', 'heap MiB': first.after.heapUsedMiB, 'RSS MiB': first.after.rssMiB },
    { moment: 'after run 2', 'heap MiB': second.after.heapUsedMiB, 'RSS MiB': second.after.rssMiB },
  ]);
  console.log(
    `growth over run 2 (after run 1 → after run 2): heap ${pct(first.after.heapUsedMiB, second.after.heapUsedMiB)}, RSS ${pct(first.after.rssMiB, second.after.rssMiB)} (goal: under 10 %)`,
  );
};
