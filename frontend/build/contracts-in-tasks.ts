import type { Plugin } from 'vite';

/** The contract modules (shared/contracts, not their tests) whose schemas the web app builds as its entry runs. */
export const isContractModule = (id: string): boolean =>
  /[\\/]shared[\\/]contracts[\\/](?:[^\\/]+[\\/])*[^\\/]+\.ts$/.test(id) && !/\.test\.ts$/.test(id);

/**
 * A top-level wait for a later task. `scheduler.yield` where the browser has it (its continuation goes before other
 * queued tasks), else a message to the page itself, which, unlike a timer, is not clamped to 4 ms when such waits
 * follow one another. Written into each module rather than imported: an import of one shared helper from every
 * contract moved modules between the build's chunks (the page's entry shrank, the shared chunk grew, four small chunks
 * more).
 */
export const NEXT_TASK =
  'await (globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((settle) => { ' +
  'const channel = new MessageChannel(); channel.port1.onmessage = () => { channel.port1.close(); settle(); }; ' +
  'channel.port2.postMessage(0); }));\n';

/**
 * The module's code with a wait for a later task before its body. Its imports still run first (an ES module's
 * dependencies are evaluated before it, and import declarations are hoisted above the wait); then its schemas are
 * built in a task of their own.
 */
export const inTaskOfItsOwn = (code: string): string => `${NEXT_TASK}${code}`;

/**
 * The web build builds each contract module's schemas in a task of its own (issue 36, decision 112). The entry's
 * modules are evaluated in one task however many they are, and zod building every contract's schemas was most of it:
 * 104–142 ms on Lighthouse's phone, blocking the main thread after the first paint. A top-level `await` of the next
 * task at the head of each contract module cuts that into one short task per module; the modules that import a
 * contract wait for it, as ES modules do. Only the browser's build: the Lambdas and the tests load the contracts as
 * they are, and so does the dev server.
 */
export const contractsInTasksPlugin = (): Plugin => ({
  name: 'contracts-in-tasks',
  apply: 'build',
  transform(code, id) {
    if (!isContractModule(id)) return null;
    return { code: inTaskOfItsOwn(code), map: null };
  },
});
