/** Spec §9: every environment lives in us-west-2. */
export const REGION = 'us-west-2';

export const ENVIRONMENTS = ['local', 'dev', 'dev-1', 'dev-2', 'preview', 'prod'] as const;
export type EnvName = (typeof ENVIRONMENTS)[number];

export const isEnvName = (name: string): name is EnvName => (ENVIRONMENTS as readonly string[]).includes(name);

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
}

/** Environments developers deploy for themselves, where a locally served front end may call the APIs. */
export const DEVELOPER_ENVIRONMENTS: readonly EnvName[] = ['dev', 'dev-1', 'dev-2'];

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

export const environmentSettings = (name: EnvName): EnvironmentSettings => ({
  name,
  retainData: name === 'prod' || name === 'preview',
  // Only developers' own environments also answer the local dev server (a front end run against the cloud); preview
  // and prod answer their own web origin alone (issue 19).
  extraCorsOrigins: DEVELOPER_ENVIRONMENTS.includes(name) ? ['http://localhost:5173'] : [],
  mailDomain: name === 'prod' ? MAIL_DOMAIN : `${name}.${MAIL_DOMAIN}`,
  alarmEmail: ALARM_EMAILS[name],
  logRetentionDays: LOG_RETENTION_DAYS[name],
});

export const mailFrom = (settings: Pick<EnvironmentSettings, 'mailDomain'>): string =>
  `no-reply@${settings.mailDomain}`;
