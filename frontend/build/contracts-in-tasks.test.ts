import { jest } from '@jest/globals';
import { contractsInTasksPlugin, inTaskOfItsOwn, isContractModule } from './contracts-in-tasks';

type Log = { log?: string[] };
const AsyncFunction = (async () => undefined).constructor as new (body: string) => () => Promise<void>;

/** A module body as the build writes it (without imports: an async function stands for the module). */
const moduleRun = (body: string) => new AsyncFunction(inTaskOfItsOwn(body));

/** Resolves after `n` chained microtasks: a wait that is itself only a microtask finishes before it. */
const microtasks = async (n: number) => {
  for (let i = 0; i < n; i++) await null;
};

describe('building the contracts in tasks of their own (decision 112)', () => {
  const global = globalThis as unknown as Log & { scheduler?: unknown };
  beforeEach(() => {
    global.log = [];
  });
  afterEach(() => {
    delete global.log;
    delete global.scheduler;
  });

  it('takes the modules of shared/contracts, in folders too, and not their tests or any other module', () => {
    expect(isContractModule('/repo/shared/contracts/devices.ts')).toBe(true);
    expect(isContractModule('C:\\repo\\shared\\contracts\\audit\\entries.ts')).toBe(true);
    expect(isContractModule('/repo/shared/contracts/client.test.ts')).toBe(false);
    expect(isContractModule('/repo/shared/sensor-data/measurements.ts')).toBe(false);
    expect(isContractModule('/repo/frontend/src/lib/api.ts')).toBe(false);
  });

  it("runs the module's body after a task, not a microtask, where the browser has no scheduler.yield", async () => {
    const run = moduleRun("globalThis.log.push('body');");
    const done = run();
    const chained = microtasks(200).then(() => global.log!.push('200 microtasks'));
    global.log!.push('started');
    await Promise.all([done, chained]);
    expect(global.log).toEqual(['started', '200 microtasks', 'body']);
  });

  it('waits on scheduler.yield, called on the scheduler, where the browser has it', async () => {
    let settle = () => {};
    const scheduler = {
      yield: jest.fn(function (this: unknown) {
        global.log!.push(this === scheduler ? 'yield on the scheduler' : 'yield without it');
        return new Promise<void>((resolve) => {
          settle = resolve;
        });
      }),
    };
    global.scheduler = scheduler;
    const done = moduleRun("globalThis.log.push('body');")();
    await microtasks(20);
    expect(global.log).toEqual(['yield on the scheduler']);
    settle();
    await done;
    expect(global.log).toEqual(['yield on the scheduler', 'body']);
  });

  it('changes only the contract modules, and only in the build', () => {
    const plugin = contractsInTasksPlugin();
    expect(plugin.apply).toBe('build');
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    expect(transform('export const a = 1;', '/repo/frontend/src/lib/api.ts')).toBeNull();
    expect(transform('export const a = 1;', '/repo/shared/contracts/devices.ts')?.code).toBe(
      inTaskOfItsOwn('export const a = 1;'),
    );
  });
});
