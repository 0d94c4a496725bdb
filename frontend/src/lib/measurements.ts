import type { RuntimeConfig } from '../../../shared/config/runtime-config';

/**
 * Real-user monitoring (spec §9's analytics id, docs/decisions/040-real-user-monitoring.md): page views, JavaScript
 * errors and the Core Web Vitals of real visits, sent to the environment's CloudWatch RUM app monitor (locally, the
 * stack's collector). Nothing is measured until the visitor switches it on (the privacy page), never when the browser
 * sends Global Privacy Control or Do Not Track. The RUM client is a chunk of its own (lib/measurements-client.ts), which
 * main.tsx loads after the page is up, only for a visitor who said yes.
 */

/** Where the visitor's choice is kept (this browser only). */
export const MEASUREMENTS_CONSENT_KEY = 'measurements-consent';

export type MeasurementsState =
  /** The environment has no app monitor. */
  | 'unavailable'
  /** The browser asks sites not to track (GPC or DNT): off, whatever the switch said. */
  | 'refused-by-browser'
  | 'on'
  | 'off';

export type PrivacySignals = { globalPrivacyControl?: boolean; doNotTrack?: string | null };

export const measurementsState = (
  config: Pick<RuntimeConfig, 'analytics'>,
  storage: Pick<Storage, 'getItem'>,
  signals: PrivacySignals,
): MeasurementsState => {
  if (!config.analytics) return 'unavailable';
  if (signals.globalPrivacyControl === true || signals.doNotTrack === '1') return 'refused-by-browser';
  return storage.getItem(MEASUREMENTS_CONSENT_KEY) === 'granted' ? 'on' : 'off';
};

/**
 * The page id a view is recorded under: the route's pattern (`/dashboard/devices/:id`), never the path, so a
 * device's, organization's or person's id is never sent, and the dashboard's per-route figures add up by screen.
 */
export const pageIdOf = (patterns: readonly (string | undefined)[]): string => {
  let id = '';
  for (const pattern of patterns) {
    if (!pattern) continue;
    id = pattern.startsWith('/') ? pattern : `${id.replace(/\/$/, '')}/${pattern}`;
  }
  return id || '/';
};

let currentPage: string | undefined;
let forward: ((pageId: string) => void) | undefined;

/** The view of a route; sent at once when measuring, else kept for when the client starts. */
export const recordPageView = (pageId: string): void => {
  if (pageId === currentPage) return;
  currentPage = pageId;
  forward?.(pageId);
};

/** Where the RUM client, once started, takes views from: the current one at once, then each new one. */
export const forwardPageViews = (to: (pageId: string) => void): void => {
  forward = to;
  if (currentPage) to(currentPage);
};

export const browserSignals = (): PrivacySignals => navigator as PrivacySignals;
