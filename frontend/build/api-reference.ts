import type { Plugin } from 'vite';
import { integrations } from '../../shared/contracts/integrations';
import { toOpenApi } from '../../shared/contracts/openapi';
import { sensorData } from '../../shared/contracts/sensor-data';
import { withWebhookEvents } from '../src/features/sensor-data/api-reference';

const API_REFERENCE_MODULE = 'virtual:api-reference';
const RESOLVED = `\0${API_REFERENCE_MODULE}`;

/**
 * The reference page's document (decision 100): the public API's OpenAPI document with the webhook events beside it,
 * made by the same `toOpenApi` the areas serve at `/openapi.json`, from the contracts of the same commit. Without a
 * server: its curl examples say `{baseUrl}`, which the page fills in from the runtime configuration.
 */
export const referenceDocument = () =>
  withWebhookEvents(toOpenApi(sensorData, undefined, { access: 'apiKey' }), toOpenApi(integrations));

/**
 * The Vite plugin: `virtual:api-reference` exports the document as data, in the reference page's chunk only, so the
 * page draws with its code and reads nothing more over a phone's slow round trips (issue 36: shown in under 2 s).
 */
export const apiReferencePlugin = (): Plugin => ({
  name: 'api-reference',
  resolveId(id) {
    return id === API_REFERENCE_MODULE ? RESOLVED : null;
  },
  load(id) {
    return id === RESOLVED ? `export const referenceDocument = ${JSON.stringify(referenceDocument())};` : null;
  },
});
