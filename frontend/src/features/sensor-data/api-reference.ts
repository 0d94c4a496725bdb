import { OPENAPI_PATH } from '../../../../shared/contracts/openapi';

/**
 * Where the reference reads the public API's description: the sensor-data area's OpenAPI document, only the routes an
 * API key calls (docs/sensor-data.md, "API reference"). The document is the gateway's, derived from the contract.
 */
export const publicApiSpecUrl = (sensorDataBaseUrl: string): string =>
  `${sensorDataBaseUrl.replace(/\/$/, '')}${OPENAPI_PATH}?access=apiKey`;

/**
 * RapiDoc's settings for the reference (the page hands it the document it read): read mode (every route open, its example beside it), no spec loading from
 * elsewhere, the try-it console with a key typed into the page (never kept in storage), and no web fonts (the CSP
 * allows fonts from the app only; the app's own stacks are passed in).
 */
export const rapiDocAttributes = (look: {
  scheme: 'light' | 'dark';
  bg: string;
  text: string;
  accent: string;
  sans: string;
  mono: string;
}): Record<string, string> => ({
  'render-style': 'read',
  layout: 'column',
  theme: look.scheme,
  'bg-color': look.bg,
  'text-color': look.text,
  'primary-color': look.accent,
  'nav-bg-color': look.bg,
  'nav-text-color': look.text,
  'nav-accent-color': look.accent,
  'regular-font': look.sans,
  'mono-font': look.mono,
  'load-fonts': 'false',
  'show-header': 'false',
  'show-info': 'true',
  'allow-authentication': 'true',
  'persist-auth': 'false',
  'allow-try': 'true',
  'allow-spec-url-load': 'false',
  'allow-spec-file-load': 'false',
  'allow-spec-file-download': 'true',
  'allow-server-selection': 'false',
  'schema-style': 'table',
  'default-schema-tab': 'schema',
  'show-method-in-nav-bar': 'as-colored-text',
  'info-description-headings-in-navbar': 'true',
  // Links inside the reference move within it; the app's own router keeps its address.
  'update-route': 'false',
});
