import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { STA_API_ROOT_PATH, STA_ROOT_PATH } from '../../../../shared/contracts/sensor-data-sta';
import { ErrorAlert } from '../../components/form-parts';
import { runtimeConfig } from '../../lib/runtime-config';
import { readToken, useColorScheme } from '../../lib/theme';
import { publicApiSpecUrl, rapiDocAttributes, webhookEventsSpecUrl, withWebhookEvents } from './api-reference';
import './api-reference.css';

type RapiDocElement = HTMLElement & { loadSpec: (spec: unknown) => Promise<void> };

/**
 * /dashboard/api/reference: the public API's reference, drawn by RapiDoc (a web component, about 220 kB gzipped,
 * loaded only here) from the OpenAPI document the sensor-data API serves: authentication, quota headers, every
 * route with its parameters, answers and a curl example. Open to guests: the document is.
 */
export const ApiReferencePage = () => {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  const [viewerError, setViewerError] = useState<string>();
  const [ready, setReady] = useState(false);
  const baseUrl = (runtimeConfig().apiBaseUrls['sensor-data'] ?? '').replace(/\/$/, '');
  const specUrl = publicApiSpecUrl(baseUrl);
  // Not open-data-rules' staRoot: a third chunk using it would move it into the app's entry (vite.config.ts).
  const [keyRoot, guestRoot] = [`${baseUrl}${STA_API_ROOT_PATH}`, `${baseUrl}${STA_ROOT_PATH}`];
  const eventsUrl = webhookEventsSpecUrl(runtimeConfig().apiBaseUrls.integrations ?? '');
  // The document changes only with a release: read once per visit.
  const spec = useQuery({
    queryKey: ['sensor-data', 'openapi', { access: 'apiKey', with: 'webhooks' }],
    queryFn: async () => {
      const read = async (url: string) => {
        const response = await fetch(url, { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(`The API description could not be loaded (HTTP ${response.status}).`);
        return (await response.json()) as unknown;
      };
      // The webhook events are the integrations area's; the routes are there without them.
      const [routes, events] = await Promise.all([read(specUrl), read(eventsUrl).catch(() => undefined)]);
      return withWebhookEvents(routes, events);
    },
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
  });

  useEffect(() => {
    const container = host.current;
    const description = spec.data;
    if (!container || description === undefined) return;
    let element: RapiDocElement | undefined;
    let gone = false;
    import('./rapidoc-element')
      .then(async ({ RAPIDOC_TAG, fitIntoPage }) => {
        if (gone) return;
        element = document.createElement(RAPIDOC_TAG) as RapiDocElement;
        const attributes = rapiDocAttributes({
          scheme,
          bg: readToken('--color-surface', '#ffffff'),
          text: readToken('--color-text', '#1d2330'),
          accent: readToken('--color-accent', '#1f5fbf'),
          sans: readToken('--font-sans', 'system-ui, sans-serif'),
          mono: readToken('--font-mono', 'monospace'),
        });
        for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
        element.setAttribute('data-testid', 'api-reference-doc');
        container.replaceChildren(element);
        await element.loadSpec(structuredClone(description));
        await fitIntoPage(element);
        if (!gone) setReady(true);
      })
      .catch(() => setViewerError('The reference viewer could not be loaded. Reload the page to try again.'));
    return () => {
      gone = true;
      element?.remove();
    };
  }, [spec.data, scheme]);

  const error = viewerError ?? (spec.error ? spec.error.message : undefined);
  return (
    <div className="page api-reference" data-testid="api-reference-page">
      <p className="small">
        <Link to="/dashboard/api">← Public API: keys and usage</Link>
      </p>
      <h1>API reference</h1>
      <p className="muted">
        The routes a script calls with an API key, how to authenticate, the quota headers and a curl example for each.
        The same description, as OpenAPI 3.1, is at{' '}
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
      <ErrorAlert testId="api-reference-error" error={error} />
      {/* RapiDoc's element is placed here by hand: React keeps no children of its own in this box. */}
      <div ref={host} className="api-reference-doc card" aria-busy={!ready} />
      {/* Below the box, so nothing moves when it goes as the reference arrives. */}
      {!ready && !error && (
        <p className="muted" role="status">
          Loading the reference…
        </p>
      )}
    </div>
  );
};
