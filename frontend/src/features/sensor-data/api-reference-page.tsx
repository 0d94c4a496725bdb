import { referenceDocument } from 'virtual:api-reference';
import { useEffect, useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { STA_API_ROOT_PATH, STA_ROOT_PATH } from '../../../../shared/contracts/sensor-data-sta';
import { runtimeConfig } from '../../lib/runtime-config';
import { publicApiSpecUrl, referenceOf, withServer } from './api-reference';
import { ReferenceView } from './api-reference-view';
import './api-reference.css';

/**
 * /dashboard/api/reference: the public API's reference, drawn by the app itself (decision 100) from the OpenAPI
 * document of the contracts, made at build time and shipped with this page (no read before it draws): authentication,
 * quota headers, every route with its access rule, parameters, answers and a curl example, the webhook events'
 * payloads and the error shapes. Open to guests, as the document the API serves is.
 */
export const ApiReferencePage = () => {
  const baseUrl = (runtimeConfig().apiBaseUrls['sensor-data'] ?? '').replace(/\/$/, '');
  const specUrl = publicApiSpecUrl(baseUrl);
  // Not open-data-rules' staRoot: a third chunk using it would move it into the app's entry (vite.config.ts).
  const [keyRoot, guestRoot] = [`${baseUrl}${STA_API_ROOT_PATH}`, `${baseUrl}${STA_ROOT_PATH}`];
  const reference = useMemo(() => referenceOf(withServer(referenceDocument, baseUrl)), [baseUrl]);

  // A link to an operation, followed from elsewhere or within the page: scrolled to and focused, so a screen reader
  // reads its heading and Tab goes on from there.
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [hash]);

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
      <ReferenceView reference={reference} />
    </div>
  );
};
