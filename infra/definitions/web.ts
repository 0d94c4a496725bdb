/**
 * How the web app is served, in both homes: the web stack's CloudFront distribution and the local stack's
 * production server (`npm start -- --prod`) read these, so what the e2e tests and the bench see is what users get.
 */

/** Written by the web-config stack, so the site deployment must neither overwrite nor prune it. */
export const RUNTIME_CONFIG_KEY = 'runtime-config.json';

/** Vite's content-hashed output: a name never changes its content, so it may be cached for good. */
export const HASHED_ASSETS_PREFIX = 'assets/';

/** The Cache-Control of the site's objects. */
export const WEB_CACHE_CONTROL = {
  /** Hashed chunks, styles and workers. */
  hashedAssets: 'public, max-age=31536000, immutable',
  /** index.html, the runtime configuration and anything unhashed: revalidated on each load, so a deploy shows at once. */
  other: 'no-cache',
} as const;

/**
 * The security headers on every response of the site (CloudFront's response headers policy), replacing their
 * value if an origin sent one. The values of CloudFront's managed SecurityHeadersPolicy, written out so the local
 * server can send the same.
 */
export const WEB_SECURITY_HEADERS = {
  strictTransportSecurity: { maxAgeSeconds: 31_536_000, includeSubdomains: true, preload: false },
  contentTypeOptions: 'nosniff',
  // No page of the app is meant to be framed (clickjacking); CSP's frame-ancestors says the same to new browsers.
  frameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  xssProtection: { protection: true, modeBlock: true },
} as const;

/** RUM's data plane in the region, where the web client puts its events (docs/decisions/040-real-user-monitoring.md). */
export const rumEndpoint = (region: string): string => `https://dataplane.rum.${region}.amazonaws.com`;

/** Where the app is served: the browser reaches the local stack's ports, or the region's AWS endpoints. */
/** `authDomain`: the hosted sign-in's domain, whose token endpoint the web app calls (issue 21). */
export type CspHome = { home: 'local' } | { home: 'cloud'; region: string; authDomain: string };

/**
 * The Content-Security-Policy of the built app (issue 19), by directive. Scripts only from the app's own origin:
 * no inline script, no eval (the build has none; Vite's dev server, which injects inline scripts, sends no CSP).
 * Styles allow inline: React, uPlot and MapLibre set style attributes, and Amplify UI writes its theme's variables
 * into a style element; a style cannot run code. What the browser connects to: the APIs, the identity provider,
 * the realtime endpoint and presigned S3 URLs, from the runtime configuration's kinds of endpoint.
 */
export const cspDirectives = (where: CspHome): Record<string, string[]> => {
  const aws =
    where.home === 'cloud'
      ? {
          connect: [
            `https://*.execute-api.${where.region}.amazonaws.com`,
            `https://cognito-idp.${where.region}.amazonaws.com`,
            `https://cognito-identity.${where.region}.amazonaws.com`,
            `https://${where.authDomain}`,
            `wss://*.iot.${where.region}.amazonaws.com`,
            // Real-user monitoring's data plane (docs/decisions/040-real-user-monitoring.md).
            rumEndpoint(where.region),
            `https://*.s3.${where.region}.amazonaws.com`,
          ],
          images: [`https://*.s3.${where.region}.amazonaws.com`],
        }
      : { connect: ['http://localhost:*', 'ws://localhost:*'], images: ['http://localhost:*'] };
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...aws.images],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...aws.connect],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(where.home === 'cloud' ? { 'upgrade-insecure-requests': [] } : {}),
  };
};

export const contentSecurityPolicy = (where: CspHome): string =>
  Object.entries(cspDirectives(where))
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

/**
 * {@link WEB_SECURITY_HEADERS} as the HTTP header lines CloudFront sends (lower-case names), with the CSP of the home
 * when one is given (not for Vite's dev server: its page runs inline scripts).
 */
export const securityHeaderLines = (csp?: CspHome): Record<string, string> => {
  const { strictTransportSecurity: hsts, xssProtection } = WEB_SECURITY_HEADERS;
  return {
    'strict-transport-security': [
      `max-age=${hsts.maxAgeSeconds}`,
      ...(hsts.includeSubdomains ? ['includeSubDomains'] : []),
      ...(hsts.preload ? ['preload'] : []),
    ].join('; '),
    'x-content-type-options': WEB_SECURITY_HEADERS.contentTypeOptions,
    'x-frame-options': WEB_SECURITY_HEADERS.frameOptions,
    'referrer-policy': WEB_SECURITY_HEADERS.referrerPolicy,
    'x-xss-protection': xssProtection.protection ? `1${xssProtection.modeBlock ? '; mode=block' : ''}` : '0',
    ...(csp ? { 'content-security-policy': contentSecurityPolicy(csp) } : {}),
  };
};
