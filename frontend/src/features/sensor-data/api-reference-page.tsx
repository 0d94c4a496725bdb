import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { STA_API_ROOT_PATH, STA_ROOT_PATH } from '../../../../shared/contracts/sensor-data-sta';
import { ErrorAlert } from '../../components/form-parts';
import { useFirstReads } from '../../lib/first-reads';
import { runtimeConfig } from '../../lib/runtime-config';
import { publicApiSpecUrl, referenceOf, webhookEventsSpecUrl, withWebhookEvents } from './api-reference';
import { ReferenceView } from './api-reference-view';
import './api-reference.css';

const read = async (url: string) => {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`The API description could not be loaded (HTTP ${response.status}).`);
  return (await response.json()) as unknown;
};

/** The public API's document with the webhook events beside it, read once per visit (it changes only with a release). */
const referenceRead = (specUrl: string, eventsUrl: string) => ({
  queryKey: ['sensor-data', 'openapi', { access: 'apiKey', with: 'webhooks' }],
  queryFn: async () => {
    // The webhook events are the integrations area's; the routes are there without them.
    const [routes, events] = await Promise.all([read(specUrl), read(eventsUrl).catch(() => undefined)]);
    return withWebhookEvents(routes, events);
  },
  staleTime: Number.POSITIVE_INFINITY,
  refetchInterval: false as const,
});

/**
 * /dashboard/api/reference: the public API's reference, drawn by the app itself (decision 100) from the OpenAPI
 * document the sensor-data API serves: authentication, quota headers, every route with its access rule, parameters,
 * answers and a curl example, the webhook events' payloads and the error shapes. Open to guests: the document is.
 */
export const ApiReferencePage = () => {
  const baseUrl = (runtimeConfig().apiBaseUrls['sensor-data'] ?? '').replace(/\/$/, '');
  const specUrl = publicApiSpecUrl(baseUrl);
  // Not open-data-rules' staRoot: a third chunk using it would move it into the app's entry (vite.config.ts).
  const [keyRoot, guestRoot] = [`${baseUrl}${STA_API_ROOT_PATH}`, `${baseUrl}${STA_ROOT_PATH}`];
  const eventsUrl = webhookEventsSpecUrl(runtimeConfig().apiBaseUrls.integrations ?? '');
  const documentRead = referenceRead(specUrl, eventsUrl);
  // Drawn with the document: a link to an operation (#op-…) finds it on the first render, and nothing moves after.
  useFirstReads(documentRead);
  const spec = useQuery(documentRead);
  const reference = useMemo(() => (spec.data === undefined ? undefined : referenceOf(spec.data)), [spec.data]);

  // A link to an operation, followed from elsewhere or within the page: scrolled to and focused, so a screen reader
  // reads its heading and Tab goes on from there.
  const { hash } = useLocation();
  useEffect(() => {
    if (!reference || !hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [hash, reference]);

  return (
    <div className="page api-reference" data-testid="api-reference-page">
      <p className="small">
        <Link to="/dashboard/api">← Public API: keys and usage</Link>
      </p>
      <h1>API reference</h1>
      <p className="muted">
        The routes a script calls with an API key, how to authenticate, the quota headers and a curl example for each,
        then the webhook events a receiver is sent. The same description, as OpenAPI 3.1, is at{' '}
        <a href={specUrl} className="mono" data-testid="api-reference-spec-link">
          {specUrl}
        </a>
        .
      </p>
      <p className="muted" data-testid="api-reference-sta">
        Sensor data as the OGC SensorThings API 1.1 (any SensorThings client, GIS tool or notebook reads it):{' '}
        <a href={keyRoot} className="mono">
          {keyRoot}
        </a>{' '}
        with a key, and <span className="mono">{guestRoot}</span> for public devices without one.
      </p>
      <ErrorAlert testId="api-reference-error" error={spec.error ? spec.error.message : undefined} />
      {reference && <ReferenceView reference={reference} />}
    </div>
  );
};
