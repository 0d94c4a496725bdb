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
  strictTransportSecurity: { maxAgeSeconds: 31_536_000, includeSubdomains: false, preload: false },
  contentTypeOptions: 'nosniff',
  frameOptions: 'SAMEORIGIN',
  referrerPolicy: 'strict-origin-when-cross-origin',
  xssProtection: { protection: true, modeBlock: true },
} as const;

/** {@link WEB_SECURITY_HEADERS} as the HTTP header lines CloudFront sends (lower-case names). */
export const securityHeaderLines = (): Record<string, string> => {
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
  };
};
