import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { AREAS } from '../../shared/contracts/areas';
import { EARLY_READ_ROUTES } from '../src/lib/early-read-requests';

const PATHS_MODULE = 'virtual:early-read-paths';
const RESOLVED = `\0${PATHS_MODULE}`;
const ENTRY = fileURLToPath(new URL('../src/early-reads.ts', import.meta.url));
const NAME = 'early-reads';

/**
 * Each early read's route path (`{area}.{route}` → its template), from the contracts of the same commit: the early
 * reads build the very URLs the typed client does without loading the contracts and zod.
 */
export const earlyReadPaths = (): Record<string, string> =>
  Object.fromEntries(
    EARLY_READ_ROUTES.map(({ area, route }) => {
      const routes = (AREAS as unknown as Record<string, { routes: Record<string, { method: string; path: string }> }>)[
        area
      ]?.routes;
      const found = routes?.[route];
      if (found?.method !== 'GET') throw new Error(`An early read must be a GET route: ${area}.${route}`);
      return [`${area}.${route}`, found.path];
    }),
  );

/**
 * The early reads (decision 113): `src/early-reads.ts` is a script of its own in the page's HTML, before the app's, so
 * it runs while the app's code downloads. The build emits it as an entry chunk and names it in the HTML; the dev server
 * serves its source. `virtual:early-read-paths` gives it the routes' paths.
 */
export const earlyReadsPlugin = (): Plugin => {
  let building = false;
  return {
    name: 'early-reads',
    configResolved(config) {
      building = config.command === 'build';
    },
    buildStart() {
      if (building) this.emitFile({ type: 'chunk', id: ENTRY, name: NAME });
    },
    resolveId(id) {
      return id === PATHS_MODULE ? RESOLVED : null;
    },
    load(id) {
      return id === RESOLVED ? `export const EARLY_READ_PATHS = ${JSON.stringify(earlyReadPaths())};` : null;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        // The chunk that holds the script's code (the build's 'early-reads' group, frontend/vite.config.ts), not the
        // entry's facade, which only imports it: named directly, it loads in one request rather than two in a row.
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.moduleIds.includes(ENTRY) && output.facadeModuleId !== ENTRY,
        );
        const src = chunk ? `/${chunk.fileName}` : building ? undefined : '/src/early-reads.ts';
        if (!src) throw new Error('The early reads chunk is missing from the build');
        return [{ tag: 'script', attrs: { type: 'module', crossorigin: true, src }, injectTo: 'head-prepend' }];
      },
    },
  };
};
