import * as z from 'zod';
import { STRIPE_MODES, type StripeMode } from '../../functions/_shared/billing/stripe-mode';
import { ROLLUP_COALESCING, type RollupCoalescing } from '../../functions/_shared/sensor-data/rollup-coalescing';
import type { HostedProvider } from '../../shared/auth/hosted-sign-in';
import { ENVIRONMENTS, type EnvName } from '../../shared/config/environment-names';
import { THROTTLE_CLASSES, type ThrottleClass } from './route-throttles';

// The names are shared/config's (a function reads its own from ENV_NAME); their settings are here.
export { ENVIRONMENTS, type EnvName, isEnvName } from '../../shared/config/environment-names';

/** Spec §9: every environment lives in us-west-2. */
export const REGION = 'us-west-2';
/** CloudFront takes its certificates, and WAF its CLOUDFRONT-scope web ACLs, from this region only. */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

export interface EnvironmentSettings {
  name: EnvName;
  /** Production data survives a stack deletion; the rest is disposable. */
  retainData: boolean;
  /** Origins the APIs answer CORS for, besides the environment's own web distribution. */
  extraCorsOrigins: string[];
  /**
   * The domain e-mail is sent from (`no-reply@{mailDomain}`), an SES identity the messaging stack creates;
   * its DNS records (DKIM) must be published before SES sends for it. Change it here for your own domain.
   */
  mailDomain: string;
  /**
   * Where the environment's alarms are e-mailed: the operations stack subscribes it to the environment's alarm
   * topic, and SNS asks the address to confirm once (README, "Operations: alarms and the dashboard").
   */
  alarmEmail: string;
  /**
   * Days every log group of the environment keeps its events: each function's, the APIs' access logs, the IoT rules'
   * errors and CDK's own handlers' (docs/decisions/026-least-privilege-and-data-protection.md). Must be a value
   * CloudWatch Logs accepts (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, …).
   */
  logRetentionDays: number;
  /**
   * The environment's API host (spec §7: each area at `{service}.{apiHost}`) and its ACM certificate in us-west-2,
   * which must cover `*.{apiHost}`. Absent: each area answers on its execute-api address.
   */
  apiDomain?: CustomDomain;
  /** The web app's own domain and its ACM certificate in us-east-1 (CloudFront's). Absent: the cloudfront.net name. */
  webDomain?: CustomDomain;
  /** Every API stage's steady rate (requests per second) and burst; a route may ask for less (`routeThrottling`). */
  apiThrottling: { rateLimit: number; burstLimit: number };
  /**
   * The method-level rate and burst of each throttle class (infra/definitions/route-throttles.ts names which routes
   * are in which class): below the stage's, for every caller of the route together.
   */
  routeThrottling: Record<ThrottleClass, { rateLimit: number; burstLimit: number }>;
  /**
   * Which Stripe keys the environment takes: only production charges real cards. A billing function refuses a key
   * of the other mode at cold start (`STRIPE_MODE`), so a live key put into a test environment never charges anyone.
   */
  stripeMode: StripeMode;
  /**
   * A regional WAF web ACL in front of every API (AWS's common and known-bad-inputs rule groups, and a rate rule:
   * requests one address may send in any 5 minutes before it is blocked). Absent: no web ACL (developers' own).
   */
  waf?: { ratePerFiveMinutes: number };
  /**
   * A CLOUDFRONT-scope WAF web ACL in front of the web distribution (created in us-east-1, CloudFront's region for
   * WAF; the same managed rule groups and a rate rule per address). Absent: the distribution has no web ACL.
   */
  webWaf?: { ratePerFiveMinutes: number };
  /**
   * How CodeDeploy moves every function's `live` alias to a new version: a canary (10 % of invocations for 5
   * minutes, then all) or all at once; either way rolled back when the function's errors alarm during the shift.
   */
  deployment: DeploymentStrategy;
  /**
   * Where the hosted sign-in (Cognito's managed login, issue 21) answers: a Cognito prefix domain
   * (`{prefix}.auth.{region}.amazoncognito.com`, `device-data-{env}` unless DOMAINS names an `auth` domain) or the
   * environment's own auth domain with its ACM certificate in us-east-1 (Cognito serves it through CloudFront).
   */
  authDomain: AuthDomain;
  /**
   * The identity providers a person may sign in with besides e-mail and password (README, "Enabling a sign-in
   * provider in an environment"). Empty: password sign-in only.
   */
  identityProviders: IdentityProviderSettings[];
  /**
   * Remembered devices (spec §7's device operations, docs/decisions/039-remembered-devices.md): every signed-in
   * browser is tracked and listed on the person's account page; a browser is remembered only when the person asks.
   * `skipSecondFactor`: a remembered browser signs in without the authenticator code (Cognito's
   * ChallengeRequiredOnNewDevice); otherwise it is listed and can be forgotten, but the code is asked every time.
   */
  rememberedDevices: { skipSecondFactor: boolean };
  /**
   * Real-user monitoring (spec §9's analytics id, docs/decisions/040-real-user-monitoring.md): a CloudWatch RUM app
   * monitor for the web app. `sessionSampleRate`: the share of consenting visitors' sessions recorded (0–1); RUM bills
   * per event, so the busiest environment records a sample.
   */
  realUserMonitoring: { sessionSampleRate: number };
  /**
   * When a device's stored readings are rolled up for the 7-day and longer charts (ROLLUP_COALESCING,
   * docs/decisions/042-hourly-roll-ups.md): `hour`, once the hour is over, one recompute of the hour however often the
   * device reports (the cost per device, decision 033); `none`, after every batch.
   */
  rollupCoalescing: RollupCoalescing;
  /**
   * Whether the functions' bundles hold Powertools' Tracer (docs/decisions/045-sdk-tracing-per-environment.md): an
   * X-Ray subsegment for every SDK call (which table, queue or bucket, which operation, how long, retries) and one for
   * the handler, annotated with its cold start and correlation id. It costs each bundle about 120 KB and each cold start
   * about 20 ms, so an environment takes it while its people look for where time goes.
   */
  traceSdkCalls: boolean;
}

/** CodeDeploy's predefined Lambda configurations an environment may take (infra/services/gradual-deployment.ts). */
export const DEPLOYMENT_STRATEGIES = [
  'CANARY_10PERCENT_5MINUTES',
  'LINEAR_10PERCENT_EVERY_1MINUTE',
  'ALL_AT_ONCE',
] as const;
export type DeploymentStrategy = (typeof DEPLOYMENT_STRATEGIES)[number];

/**
 * A canary where people and devices are served (preview, prod): a bad version meets a tenth of the traffic for five
 * minutes, long enough for the error alarm's 5-minute period to see it. A developer's environment deploys at once.
 */
const DEPLOYMENT: Record<EnvName, DeploymentStrategy> = {
  local: 'ALL_AT_ONCE',
  dev: 'ALL_AT_ONCE',
  'dev-1': 'ALL_AT_ONCE',
  'dev-2': 'ALL_AT_ONCE',
  preview: 'CANARY_10PERCENT_5MINUTES',
  prod: 'CANARY_10PERCENT_5MINUTES',
};

/** The hosted sign-in's domain: a Cognito prefix domain, or a domain of the operator's with its certificate. */
export type AuthDomain = { prefix: string } | CustomDomain;

/**
 * Which of the provider's attributes (an OpenID claim, a SAML attribute name) fill the user pool's e-mail, given
 * and family name; `emailVerified` carries the provider's word that the e-mail is verified, where it gives one.
 */
export interface AttributeMapping {
  email: string;
  givenName: string;
  familyName: string;
  emailVerified?: string;
}

/** What every identity provider carries. */
interface IdentityProviderBase {
  /** How the provider's attributes map onto the user pool's. */
  attributeMapping: AttributeMapping;
  /**
   * Whether a login through this provider may be linked to an existing account of the same e-mail (when the
   * provider asserts the e-mail verified). Carried as data here; the linking rule reads it (issue 21).
   */
  trustedForLinking: boolean;
}

/** Sign in with Google: Cognito names it `Google`. */
export interface GoogleProviderSettings extends IdentityProviderBase {
  type: 'google';
  /** The OAuth client id from Google's console (`….apps.googleusercontent.com`). */
  clientId: string;
  /** The Secrets Manager secret (its name, `device-data/{env}/…`) whose value is the client secret. */
  clientSecretName: string;
}

/** A generic OpenID Connect provider (an organization's own identity provider). */
export interface OidcProviderSettings extends IdentityProviderBase {
  type: 'oidc';
  /** The provider's name in Cognito and on the sign-in button (e.g. `NorthsideAir`; Cognito allows no blanks). */
  name: string;
  /** The issuer; Cognito reads `{issuerUrl}/.well-known/openid-configuration`. */
  issuerUrl: string;
  clientId: string;
  /** The Secrets Manager secret (its name, `device-data/{env}/…`) whose value is the client secret. */
  clientSecretName: string;
  /** The scopes Cognito asks the provider for; `openid` among them. */
  scopes: string[];
  /** What the sign-in button says ("Sign in with Northside Air Network"); the name when absent. */
  label?: string;
}

/** A SAML 2.0 identity provider, described by its metadata document. */
export interface SamlProviderSettings extends IdentityProviderBase {
  type: 'saml';
  /** The provider's name in Cognito and on the sign-in button. */
  name: string;
  /** Where Cognito reads the IdP's metadata (https). */
  metadataUrl: string;
  /** What the sign-in button says; the name when absent. */
  label?: string;
}

export type IdentityProviderSettings = GoogleProviderSettings | OidcProviderSettings | SamlProviderSettings;

/** The provider's name as Cognito knows it: the client lists it, the web app's "Sign in with …" passes it. */
export const identityProviderName = (provider: IdentityProviderSettings): string =>
  provider.type === 'google' ? 'Google' : provider.name;

/** The provider on the web app's sign-in page: Cognito's name, and the label people read. */
export const hostedProviderOf = (provider: IdentityProviderSettings): HostedProvider => ({
  name: identityProviderName(provider),
  label: provider.type === 'google' ? 'Google' : (provider.label ?? provider.name),
});

/** The providers whose logins may be linked to an existing account of the same e-mail (the linking rule's input). */
export const providersTrustedForLinking = (settings: Pick<EnvironmentSettings, 'identityProviders'>): string[] =>
  settings.identityProviders.filter((provider) => provider.trustedForLinking).map(identityProviderName);

/** OpenID Connect's standard claims (Google's too) onto the user pool's attributes. */
export const OPENID_CLAIMS: AttributeMapping = {
  email: 'email',
  givenName: 'given_name',
  familyName: 'family_name',
  emailVerified: 'email_verified',
};

/** The claim names most SAML IdPs (Entra ID, AD FS, Okta's defaults) send; a SAML provider may name others. */
export const SAML_CLAIMS: AttributeMapping = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  givenName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  familyName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
};

/** The hosted sign-in's host name: the prefix domain Cognito gives, or the environment's own auth domain. */
export const hostedDomainOf = (settings: Pick<EnvironmentSettings, 'authDomain'>): string =>
  'prefix' in settings.authDomain
    ? `${settings.authDomain.prefix}.auth.${REGION}.amazoncognito.com`
    : settings.authDomain.name;

/** A domain an environment answers on, with the ACM certificate (its ARN) that covers it. */
export interface CustomDomain {
  name: string;
  certificateArn: string;
}

/** Environments developers deploy for themselves, where a locally served front end may call the APIs. */
export const DEVELOPER_ENVIRONMENTS: readonly EnvName[] = ['dev', 'dev-1', 'dev-2'];

/** The local dev server's origin (`npm run dev:web`), which developers' environments also answer and redirect to. */
export const LOCAL_WEB_ORIGIN = 'http://localhost:5173';

/**
 * One log retention per environment: production keeps a year (an incident or a customer's question can come months
 * later), preview a quarter (a release candidate's investigation), developers' environments a month.
 */
export const LOG_RETENTION_DAYS: Record<EnvName, number> = {
  local: 30,
  dev: 30,
  'dev-1': 30,
  'dev-2': 30,
  preview: 90,
  prod: 365,
};

/** The product's e-mail domain; each non-production environment sends from its own subdomain. */
export const MAIL_DOMAIN = 'device-data.app';

/**
 * Each environment's alarm address. Production pages the operations mailbox itself; every other environment a
 * plus-address of it, so a mail rule can sort (or mute) a developer's environment without touching production's.
 */
const ALARM_EMAILS: Record<EnvName, string> = {
  local: `ops+local@${MAIL_DOMAIN}`,
  dev: `ops+dev@${MAIL_DOMAIN}`,
  'dev-1': `ops+dev-1@${MAIL_DOMAIN}`,
  'dev-2': `ops+dev-2@${MAIL_DOMAIN}`,
  preview: `ops+preview@${MAIL_DOMAIN}`,
  prod: `ops@${MAIL_DOMAIN}`,
};

/**
 * Each environment's own domains, where it has them: the certificates are the operator's (README, "Deploying an
 * environment"), so an environment without an entry answers on the AWS-given names. Fill in, for example:
 * `prod: { api: { name: 'api.device-data.app', certificateArn: 'arn:aws:acm:us-west-2:…' },
 *          web: { name: 'device-data.app', certificateArn: 'arn:aws:acm:us-east-1:…' },
 *          auth: { name: 'auth.device-data.app', certificateArn: 'arn:aws:acm:us-east-1:…' } }`.
 * `auth` is the hosted sign-in's domain; without it the environment's is the prefix domain `device-data-{env}`.
 */
const DOMAINS: Partial<Record<EnvName, { api?: CustomDomain; web?: CustomDomain; auth?: CustomDomain }>> = {};

/**
 * Each environment's identity providers (README, "Enabling a sign-in provider in an environment"). None yet: a
 * provider's client secret must exist in Secrets Manager before the deploy reads it. For example:
 * `prod: [{ type: 'google', clientId: '1234-abc.apps.googleusercontent.com',
 *           clientSecretName: 'device-data/prod/google-client-secret', attributeMapping: OPENID_CLAIMS,
 *           trustedForLinking: true }]`.
 */
const IDENTITY_PROVIDERS: Record<EnvName, IdentityProviderSettings[]> = {
  local: [],
  dev: [],
  'dev-1': [],
  'dev-2': [],
  preview: [],
  prod: [],
};

/**
 * The AWS account of each cloud environment, as the operator names them, e.g. `{ prod: '111122223333', dev:
 * '444455556666' }`. What IoT Core holds is account-wide, not per environment: the devices' topics (`devices/{id}/…`,
 * which firmware publishes to), the realtime policy's name that spec §8 fixes (IoTPolicyForCognito) and so the topic
 * rules' filters. Two environments in one account would each ingest the other's devices, so every environment has an
 * account of its own (README, "Deploying an environment"); {@link checkAccount} holds it on every synth.
 */
export const ACCOUNTS: Partial<Record<EnvName, string>> = {};

/**
 * Refuses a synth that would put two environments in one account: two environments naming the same account, or this
 * environment going to an account other than its own or to another environment's. `account` is the one the synth
 * targets (CDK_DEFAULT_ACCOUNT, the credentials'); an environment with no account named is checked against the others.
 */
export const checkAccount = (
  name: EnvName,
  account: string | undefined,
  accounts: Partial<Record<EnvName, string>> = ACCOUNTS,
): void => {
  const named = Object.entries(accounts).filter((entry): entry is [EnvName, string] => Boolean(entry[1]));
  for (const [index, [env, id]] of named.entries()) {
    const other = named.slice(index + 1).find(([, otherId]) => otherId === id);
    if (other) {
      throw new Error(
        `The ${env} and ${other[0]} environments name the same AWS account (${id}): each environment needs an account ` +
          "of its own, as IoT Core's device topics and realtime policy are account-wide.",
      );
    }
  }
  if (!account) return;
  const own = accounts[name];
  if (own && own !== account) {
    throw new Error(`The ${name} environment deploys to account ${own}; these credentials are for account ${account}.`);
  }
  const owner = named.find(([env, id]) => env !== name && id === account);
  if (owner) {
    throw new Error(
      `Account ${account} is the ${owner[0]} environment's: deploying ${name} there would mix the two environments' ` +
        'devices (IoT Core is account-wide). Use the account named for it in ACCOUNTS.',
    );
  }
};

/**
 * API Gateway's steady rate and burst per stage. Production takes a fleet's traffic; a developer's environment a
 * person's, so a runaway script there is stopped early and cheaply.
 */
const API_THROTTLING: Record<EnvName, EnvironmentSettings['apiThrottling']> = {
  local: { rateLimit: 50, burstLimit: 100 },
  dev: { rateLimit: 50, burstLimit: 100 },
  'dev-1': { rateLimit: 50, burstLimit: 100 },
  'dev-2': { rateLimit: 50, burstLimit: 100 },
  preview: { rateLimit: 100, burstLimit: 200 },
  prod: { rateLimit: 500, burstLimit: 1000 },
};

/**
 * Each throttle class's method-level rate and burst (per second, all callers of the route together). Production's
 * are sized for a fleet's busiest hour with room to spare (a dataset build or an export is started by a person, a
 * few a minute at most); a developer's environment takes a person's clicks. Signed URLs are asked for by every chart
 * and download, so their class is the widest.
 */
const DEVELOPER_ROUTE_THROTTLING: EnvironmentSettings['routeThrottling'] = {
  background: { rateLimit: 1, burstLimit: 5 },
  signing: { rateLimit: 10, burstLimit: 20 },
  public: { rateLimit: 2, burstLimit: 5 },
};
const ROUTE_THROTTLING: Record<EnvName, EnvironmentSettings['routeThrottling']> = {
  local: DEVELOPER_ROUTE_THROTTLING,
  dev: DEVELOPER_ROUTE_THROTTLING,
  'dev-1': DEVELOPER_ROUTE_THROTTLING,
  'dev-2': DEVELOPER_ROUTE_THROTTLING,
  preview: {
    background: { rateLimit: 2, burstLimit: 5 },
    signing: { rateLimit: 20, burstLimit: 40 },
    public: { rateLimit: 5, burstLimit: 10 },
  },
  prod: {
    background: { rateLimit: 5, burstLimit: 10 },
    signing: { rateLimit: 100, burstLimit: 200 },
    public: { rateLimit: 20, burstLimit: 40 },
  },
};

/** The retention values CloudWatch Logs accepts; any other number fails the deploy, so it fails the synth. */
export const LOG_RETENTION_CHOICES = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const hostName = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a lower-case domain name');
const certificateIn = (region: string) =>
  z.object({
    name: hostName,
    certificateArn: z
      .string()
      .regex(
        new RegExp(`^arn:aws:acm:${region}:\\d{12}:certificate/[0-9a-f-]{36}$`),
        `must be an ACM certificate in ${region}`,
      ),
  });

const throttle = z
  .object({ rateLimit: z.number().positive(), burstLimit: z.number().int().positive() })
  .refine((t) => t.burstLimit >= t.rateLimit, 'the burst must be at least the rate');

/** Cognito's rule for a prefix domain: lower case, digits and hyphens, and none of its reserved words. */
const authDomainPrefix = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be lower-case letters, digits and hyphens')
  .refine((prefix) => !/aws|amazon|cognito/.test(prefix), 'may not contain aws, amazon or cognito');

const attributeMapping = z.object({
  email: z.string().min(1),
  givenName: z.string().min(1),
  familyName: z.string().min(1),
  emailVerified: z.string().min(1).optional(),
});

/** A secret's name, never its value: the name must sit under the environment's own `device-data/{env}/`. */
const secretName = z
  .string()
  .regex(/^device-data\/[a-z0-9-]+\/[A-Za-z0-9/_+=.@-]+$/, 'must be a Secrets Manager secret name device-data/{env}/…');

/**
 * Cognito's rule for an OpenID or SAML provider's name (3–32 characters, no blank and no underscore after the second,
 * which the CDK checks too), narrowed to ASCII letters, digits, dots and hyphens; the names Cognito reserves for its
 * own providers are refused.
 */
const providerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{1,30}[A-Za-z0-9]$/, 'must be 3–32 letters, digits, dots or hyphens, no blanks')
  .refine(
    (name) => !['cognito', 'google', 'facebook', 'loginwithamazon', 'signinwithapple'].includes(name.toLowerCase()),
    'is a name Cognito reserves',
  );

const httpsUrl = z.url({ protocol: /^https$/ });

const identityProvider = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('google'),
    clientId: z.string().regex(/^[\w-]+\.apps\.googleusercontent\.com$/, 'must be a Google OAuth client id'),
    clientSecretName: secretName,
    attributeMapping,
    trustedForLinking: z.boolean(),
  }),
  z.object({
    type: z.literal('oidc'),
    name: providerName,
    issuerUrl: httpsUrl,
    clientId: z.string().min(1),
    clientSecretName: secretName,
    scopes: z.array(z.string().min(1)).refine((scopes) => scopes.includes('openid'), 'must include openid'),
    label: z.string().min(1).max(60).optional(),
    attributeMapping,
    trustedForLinking: z.boolean(),
  }),
  z.object({
    type: z.literal('saml'),
    name: providerName,
    metadataUrl: httpsUrl,
    label: z.string().min(1).max(60).optional(),
    attributeMapping,
    trustedForLinking: z.boolean(),
  }),
]);

/** What every environment must say, checked on every synth: a missing or wrong value stops it, naming the field. */
export const environmentSettingsSchema = z
  .object({
    name: z.enum(ENVIRONMENTS),
    retainData: z.boolean(),
    extraCorsOrigins: z.array(z.url()),
    mailDomain: hostName,
    alarmEmail: z.email(),
    logRetentionDays: z.union(LOG_RETENTION_CHOICES.map((days) => z.literal(days))),
    apiDomain: certificateIn(REGION).optional(),
    webDomain: certificateIn(CLOUDFRONT_CERTIFICATE_REGION).optional(),
    apiThrottling: throttle,
    routeThrottling: z.object(
      Object.fromEntries(THROTTLE_CLASSES.map((c) => [c, throttle])) as Record<ThrottleClass, typeof throttle>,
    ),
    stripeMode: z.enum(STRIPE_MODES),
    // WAF's rate rules take 10 and more; below 100 a person's own page loads would trip it.
    waf: z.object({ ratePerFiveMinutes: z.number().int().min(100) }).optional(),
    webWaf: z.object({ ratePerFiveMinutes: z.number().int().min(100) }).optional(),
    deployment: z.enum(DEPLOYMENT_STRATEGIES),
    // Cognito serves a custom auth domain through CloudFront, so its certificate is in us-east-1 like the web's.
    authDomain: z.union([
      z.strictObject({ prefix: authDomainPrefix }),
      certificateIn(CLOUDFRONT_CERTIFICATE_REGION).strict(),
    ]),
    rememberedDevices: z.strictObject({ skipSecondFactor: z.boolean() }),
    realUserMonitoring: z.strictObject({ sessionSampleRate: z.number().min(0).max(1) }),
    rollupCoalescing: z.enum(ROLLUP_COALESCING),
    traceSdkCalls: z.boolean(),
    identityProviders: z
      .array(identityProvider)
      .refine(
        (providers) => new Set(providers.map(identityProviderName)).size === providers.length,
        'each provider needs a name of its own (and Google can be there once)',
      ),
  })
  .refine(
    (s) =>
      Object.values(s.routeThrottling).every(
        (t) => t.rateLimit <= s.apiThrottling.rateLimit && t.burstLimit <= s.apiThrottling.burstLimit,
      ),
    { message: "a route's throttle must not exceed its stage's", path: ['routeThrottling'] },
  )
  .superRefine((settings, context) => {
    // A secret of another environment's would let, say, dev sign in with prod's Google client.
    for (const [index, provider] of settings.identityProviders.entries()) {
      if ('clientSecretName' in provider && !provider.clientSecretName.startsWith(`device-data/${settings.name}/`)) {
        context.addIssue({
          code: 'custom',
          path: ['identityProviders', index, 'clientSecretName'],
          message: `must be one of this environment's secrets, device-data/${settings.name}/…`,
        });
      }
    }
  });

/** The settings checked: throws, naming every field that is missing or wrong, so no deploy starts with them. */
export const checkEnvironmentSettings = (settings: EnvironmentSettings): EnvironmentSettings => {
  const result = environmentSettingsSchema.safeParse(settings);
  if (result.success) return settings;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`);
  throw new Error(`The ${settings.name} environment's settings are incomplete: ${problems.join('; ')}`);
};

export const environmentSettings = (
  name: EnvName,
  overrides: Partial<Omit<EnvironmentSettings, 'name'>> = {},
): EnvironmentSettings =>
  checkEnvironmentSettings({
    ...baseSettings(name),
    ...overrides,
  });

/**
 * WAF in the environments strangers reach. A web ACL costs a fixed monthly fee plus its rules, so a developer's
 * environment goes without. 2,000 requests per 5 minutes is about 7 a second from one address, sustained: well above
 * a person's browser or one device, well below a scraper.
 */
const WAF: Partial<Record<EnvName, EnvironmentSettings['waf']>> = {
  preview: { ratePerFiveMinutes: 2000 },
  prod: { ratePerFiveMinutes: 2000 },
};

/**
 * WAF in front of the web distribution, where the API's is (preview and prod). A page load fetches the HTML, a
 * handful of hashed chunks, the runtime config and map tiles' styles (tens of requests, most cached by the browser
 * afterwards); 1,000 per 5 minutes from one address is dozens of fresh page loads, far above a person.
 */
const WEB_WAF: Partial<Record<EnvName, EnvironmentSettings['webWaf']>> = {
  preview: { ratePerFiveMinutes: 1000 },
  prod: { ratePerFiveMinutes: 1000 },
};

/**
 * Whether a remembered browser skips the authenticator code. Production asks every time: its people include staff
 * who run billing and roles, and its pool's threat protection already judges each sign-in; everywhere else a
 * remembered browser is trusted, as the demo and developers' own sign-ins need.
 */
const REMEMBERED_DEVICES_SKIP_SECOND_FACTOR: Record<EnvName, boolean> = {
  local: true,
  dev: true,
  'dev-1': true,
  'dev-2': true,
  preview: true,
  prod: false,
};

/**
 * The share of consenting visitors' sessions RUM records. Everything where the people are few (developers, preview's
 * reviewers); a quarter in production, which at RUM's price per event still gives every route's vitals a sample.
 */
const RUM_SESSION_SAMPLE_RATE: Record<EnvName, number> = {
  local: 1,
  dev: 1,
  'dev-1': 1,
  'dev-2': 1,
  preview: 1,
  prod: 0.25,
};

/**
 * Hourly roll-ups in every cloud environment, so each measures what production pays. Locally after every batch: the
 * demo and the tests show a reading in every chart at once (the worker's coalescing is tested on its own).
 */
const ROLLUP_COALESCING_OF: Record<EnvName, RollupCoalescing> = {
  local: 'none',
  dev: 'hour',
  'dev-1': 'hour',
  'dev-2': 'hour',
  preview: 'hour',
  prod: 'hour',
};

/**
 * SDK calls traced in developers' environments, where a slow page is investigated, and not where people and devices
 * are served: their bundles stay at the size and cold start the budgets hold (docs/decisions/029-small-lambdas.md).
 * For an incident in preview or prod, set it there and deploy; set it back afterwards. Locally nothing is traced (no
 * X-Ray daemon; the sources are not bundled).
 */
const TRACE_SDK_CALLS: Record<EnvName, boolean> = {
  local: false,
  dev: true,
  'dev-1': true,
  'dev-2': true,
  preview: false,
  prod: false,
};

const baseSettings = (name: EnvName): EnvironmentSettings => ({
  name,
  retainData: name === 'prod' || name === 'preview',
  // Only developers' own environments also answer the local dev server (a front end run against the cloud); preview
  // and prod answer their own web origin alone (issue 19).
  extraCorsOrigins: DEVELOPER_ENVIRONMENTS.includes(name) ? [LOCAL_WEB_ORIGIN] : [],
  mailDomain: name === 'prod' ? MAIL_DOMAIN : `${name}.${MAIL_DOMAIN}`,
  alarmEmail: ALARM_EMAILS[name],
  logRetentionDays: LOG_RETENTION_DAYS[name],
  ...(DOMAINS[name]?.api ? { apiDomain: DOMAINS[name].api } : {}),
  ...(DOMAINS[name]?.web ? { webDomain: DOMAINS[name].web } : {}),
  apiThrottling: API_THROTTLING[name],
  routeThrottling: ROUTE_THROTTLING[name],
  stripeMode: name === 'prod' ? 'live' : 'test',
  ...(WAF[name] ? { waf: WAF[name] } : {}),
  ...(WEB_WAF[name] ? { webWaf: WEB_WAF[name] } : {}),
  deployment: DEPLOYMENT[name],
  authDomain: DOMAINS[name]?.auth ?? { prefix: `device-data-${name}` },
  identityProviders: IDENTITY_PROVIDERS[name],
  rememberedDevices: { skipSecondFactor: REMEMBERED_DEVICES_SKIP_SECOND_FACTOR[name] },
  realUserMonitoring: { sessionSampleRate: RUM_SESSION_SAMPLE_RATE[name] },
  rollupCoalescing: ROLLUP_COALESCING_OF[name],
  traceSdkCalls: TRACE_SDK_CALLS[name],
});

export const mailFrom = (settings: Pick<EnvironmentSettings, 'mailDomain'>): string =>
  `no-reply@${settings.mailDomain}`;
