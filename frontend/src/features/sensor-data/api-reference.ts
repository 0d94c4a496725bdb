import { OPENAPI_PATH } from '../../../../shared/contracts/openapi';

/**
 * Where the reference reads the public API's description: the sensor-data area's OpenAPI document, only the routes an
 * API key calls (docs/sensor-data.md, "API reference"). The document is the gateway's, derived from the contract.
 */
export const publicApiSpecUrl = (sensorDataBaseUrl: string): string =>
  `${sensorDataBaseUrl.replace(/\/$/, '')}${OPENAPI_PATH}?access=apiKey`;

/** The integrations area's document: its `webhooks` are the events a receiver is sent (docs/integrations.md). */
export const webhookEventsSpecUrl = (integrationsBaseUrl: string): string =>
  `${integrationsBaseUrl.replace(/\/$/, '')}${OPENAPI_PATH}`;

/** What the reference says of webhooks, above their events: the headers, the signature and a receiver. */
const WEBHOOKS_TEXT = [
  '## Webhooks',
  "Instead of polling, a webhook of a device, a campaign's or an organization's devices (its page, Integrations) sends",
  'each event below as a POST of JSON, signed the Standard Webhooks way: `webhook-id` (the same on every retry),',
  "`webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the webhook's `whsec_…` secret; two during a",
  'rotation). Verify with a Standard Webhooks library, e.g. for Node:',
  '',
  '```js',
  "import { Webhook } from 'standardwebhooks';",
  'const event = new Webhook(process.env.WEBHOOK_SECRET).verify(body, headers); // throws on a bad or old signature',
  '```',
  '',
  'Answer 2xx within 15 seconds. Anything else is retried for 24 hours (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, with',
  'jitter), then the webhook is turned off and its owner told; 410 Gone turns it off at once.',
].join('\n');

/**
 * The public API's document with the webhook events of the integrations area's beside its routes (OpenAPI 3.1
 * `webhooks`), so one reference shows what a script calls and what it is sent.
 */
export const withWebhookEvents = (publicSpec: unknown, integrationsSpec: unknown): unknown => {
  const spec = publicSpec as { info?: { description?: string } };
  const webhooks = (integrationsSpec as { webhooks?: unknown } | undefined)?.webhooks;
  if (!webhooks) return publicSpec;
  return {
    ...spec,
    info: { ...spec.info, description: [spec.info?.description, WEBHOOKS_TEXT].filter(Boolean).join('\n\n') },
    webhooks,
  };
};

/**
 * RapiDoc's settings for the reference (the page hands it the document it read): read mode (every route open, its
 * curl example with a Copy button beside it), drawn as part of the page rather than a box that scrolls inside it,
 * and no web fonts (the CSP allows fonts from the app only; the app's own stacks are passed in).
 *
 * What RapiDoc draws that no screen reader or keyboard can use is left off (issue 36; decision 024): its side
 * navigation (links that are not links: no keyboard reaches them) and the scrolling box it comes with, its filter and
 * search boxes and its try-it console (inputs without labels), and the key box of its Authentication section (the
 * document's own Authentication text says how). A script's first call is the curl example, copied.
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
  'regular-font': look.sans,
  'mono-font': look.mono,
  'load-fonts': 'false',
  'show-header': 'false',
  'show-info': 'true',
  'show-side-nav': 'false',
  'allow-search': 'false',
  'allow-advanced-search': 'false',
  'allow-authentication': 'false',
  'persist-auth': 'false',
  'allow-try': 'false',
  'allow-spec-url-load': 'false',
  'allow-spec-file-load': 'false',
  'allow-spec-file-download': 'false',
  'allow-server-selection': 'false',
  'schema-style': 'table',
  'default-schema-tab': 'schema',
  // Links inside the reference move within it; the app's own router keeps its address.
  'update-route': 'false',
});
