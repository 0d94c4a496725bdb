import { EARLY_READ_PATHS } from 'virtual:early-read-paths';
import { routeUrl } from '../../shared/contracts/route-url';
import { earlyReadsOf } from './lib/early-read-requests';
import { offerRead, offerRuntimeConfig, RUNTIME_CONFIG_PATH } from './lib/early-reads';
import { freshStoredTokens } from './lib/stored-tokens';

/*
 * The early reads (decision 113): a script of its own in the page's HTML, a few kB without React, zod or the contracts,
 * that asks for the runtime configuration and, for a returning person whose stored tokens are fresh, the reads their
 * page is drawn with (lib/early-read-requests.ts), while the app's code downloads. The app takes the answers
 * (lib/early-reads.ts) instead of asking once its code has arrived and run: on a phone's link, its 270 kB of JS.
 */

const configResponse = fetch(RUNTIME_CONFIG_PATH, { cache: 'no-store', headers: { accept: 'application/json' } }).catch(
  () => undefined,
);

interface ConfigFields {
  apiBaseUrls?: Record<string, string>;
  auth?: { userPoolClientId?: string };
}

const askFirstReads = async () => {
  const response = await configResponse;
  const config = response?.ok ? ((await response.json()) as ConfigFields) : undefined;
  const clientId = config?.auth?.userPoolClientId;
  if (!config?.apiBaseUrls || !clientId) return;
  const tokens = freshStoredTokens(document.cookie, clientId, Date.now());
  const userId = tokens?.accessToken.payload.sub;
  if (!tokens || typeof userId !== 'string') return;
  const authorization = `Bearer ${tokens.accessToken.toString()}`;
  for (const { area, route, request } of earlyReadsOf(window.location.pathname, userId)) {
    const base = config.apiBaseUrls[area];
    const path = EARLY_READ_PATHS[`${area}.${route}`];
    if (!base || !path) continue;
    const url = routeUrl(base, path, request);
    offerRead(
      url,
      authorization,
      fetch(url, { headers: { accept: 'application/json', authorization } }),
      performance.now(),
    );
  }
};

// The app's boot reads a copy, made as the response arrives and before this script reads its own.
offerRuntimeConfig(configResponse.then((response) => response?.clone()));
void askFirstReads().catch(() => undefined);
