import type { AwsRum } from 'aws-rum-web';
import type { RuntimeConfig } from '../../../shared/config/runtime-config';
import { amplifyAuth, holdsTokens } from './auth';
import { browserSignals, forwardPageViews, MEASUREMENTS_CONSENT_KEY, measurementsState } from './measurements';

/**
 * The RUM web client and the switch's effects (docs/decisions/040-real-user-monitoring.md), a chunk of their own:
 * loaded when a visitor who switched measurements on opens a page, or by the privacy page.
 */

let client: AwsRum | undefined;
let starting: Promise<void> | undefined;

/**
 * A signed-in person reports with their own identity-pool credentials (the signed-in role), a guest with the pool's
 * guest identity (the RUM client's own flow). After a sign-out the signed-in credentials are gone: this page stops
 * measuring, and the next page load measures as a guest.
 */
const signedInCredentials = async () => {
  const { fetchAuthSession } = await amplifyAuth();
  const { credentials } = await fetchAuthSession();
  if (credentials) return credentials;
  client?.disable();
  throw new Error('No signed-in credentials: measurements stop until the next page load');
};

/** Starts (or resumes) the RUM client for the environment's app monitor. */
export const startClient = (config: RuntimeConfig): Promise<void> => {
  const { analytics } = config;
  if (!analytics) return Promise.resolve();
  if (client) {
    client.enable();
    return Promise.resolve();
  }
  starting ??= import('aws-rum-web').then(({ AwsRum }) => {
    const signed = Boolean(analytics.identityPoolId);
    // The web app carries no release number of its own; RUM asks for one.
    const rum = new AwsRum(analytics.appMonitorId, '1.0.0', config.region, {
      endpoint: analytics.endpoint,
      sessionSampleRate: analytics.sessionSampleRate,
      ...(signed ? { identityPoolId: analytics.identityPoolId } : {}),
      signing: signed,
      telemetries: ['performance', 'errors'],
      // No cookie and no stored id: a visit is a session of its own.
      allowCookies: false,
      // A resource's URL names the object the page reads (`/devices/{id}/…`): only its type and timing are sent.
      recordResourceUrl: false,
      disableAutoPageView: true,
      enableXRay: false,
    });
    if (signed && holdsTokens()) rum.setAwsCredentials(signedInCredentials);
    client = rum;
    forwardPageViews((pageId) => rum.recordPageView(pageId));
  });
  return starting;
};

/** The visitor's choice, kept in this browser; measuring starts or stops at once. */
export const setMeasurementsConsent = (config: RuntimeConfig, granted: boolean): Promise<void> => {
  localStorage.setItem(MEASUREMENTS_CONSENT_KEY, granted ? 'granted' : 'declined');
  if (granted && measurementsState(config, localStorage, browserSignals()) === 'on') return startClient(config);
  client?.disable();
  return Promise.resolve();
};

/** What the privacy page shows for this browser. */
export const currentMeasurementsState = (config: RuntimeConfig) =>
  measurementsState(config, localStorage, browserSignals());
