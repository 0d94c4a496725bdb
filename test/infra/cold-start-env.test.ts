import { ALERTS_ENV } from '../../functions/alerts/deps';
import { API_ENV } from '../../functions/api/deps';
import { CAMPAIGNS_ENV } from '../../functions/campaigns/deps';
import { CODE_RELEASES_ENV } from '../../functions/code-releases/deps';
import { CUSTOMER_ENV } from '../../functions/customer/deps';
import { DATA_INGRESS_ENV } from '../../functions/data-ingress/deps';
import { MQTT_AUTHORIZER_ENV } from '../../functions/data-ingress/wiring/mqtt-authorizer';
import { DATASETS_ENV } from '../../functions/datasets/deps';
import { DEVICES_ENV } from '../../functions/devices/deps';
import { INTEGRATIONS_ENV } from '../../functions/integrations/deps';
import { MIGRATE_ENV } from '../../functions/migrate/deps';
import { NOTIFICATIONS_ENV, NOTIFICATIONS_WORKER_ENV } from '../../functions/notifications/deps';
import { ORGANIZATIONS_ENV } from '../../functions/organizations/deps';
import { RELATIONS_ENV } from '../../functions/relations/deps';
import { SENSOR_DATA_ENV } from '../../functions/sensor-data/deps';
import { SYSTEM_ENV } from '../../functions/system/deps';
import { USERS_ENV } from '../../functions/users/deps';
import { ACCOUNT_ENV } from '../../functions/users/wiring/common';
import { IDENTITY_EVENTS_ENV } from '../../functions/users/wiring/identity-events';
import { areasWithStacks } from '../../infra/stacks/api-stack';
import type { AreaName } from '../../shared/contracts/areas';
import { areaTemplate, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Every function reads its variables at cold start and stops without one (functions/_shared/env.ts): each must be set
 * in the template its environment deploys, or the function never answers there, while the local stack, which sets
 * every variable for every area, runs it fine. The names are the wiring's own (`{AREA}_ENV`), so a variable added to an
 * area is checked here without listing it again.
 */
const STRIPE_KEY = ['STRIPE_SECRET_ARN', 'STRIPE_MODE'];
const CHAIN = ['AUTH_ISSUER', 'AUTH_CLIENT_IDS'];
/** The integrations area's sealing key and address policy (functions/integrations/store/secret-box.ts). */
const WEBHOOK_SECRETS = [...Object.values(INTEGRATIONS_ENV), 'WEBHOOK_SECRETS_KEY_ARN', 'WEBHOOK_TARGETS'];

/** What each function's entry reads at cold start, by its description (infra/stacks/area-stack.ts, auth-stack.ts). */
const API_VARIABLES: Record<AreaName, readonly string[]> = {
  alerts: Object.values(ALERTS_ENV),
  api: [...Object.values(API_ENV), ...STRIPE_KEY],
  campaigns: Object.values(CAMPAIGNS_ENV),
  'code-releases': Object.values(CODE_RELEASES_ENV),
  customer: [...Object.values(CUSTOMER_ENV), ...STRIPE_KEY, 'STRIPE_WEBHOOK_SECRET_ARN'],
  'data-ingress': Object.values(DATA_INGRESS_ENV),
  datasets: Object.values(DATASETS_ENV),
  devices: Object.values(DEVICES_ENV),
  integrations: WEBHOOK_SECRETS,
  migrate: Object.values(MIGRATE_ENV),
  notifications: Object.values(NOTIFICATIONS_ENV),
  organizations: Object.values(ORGANIZATIONS_ENV),
  relations: Object.values(RELATIONS_ENV),
  // The live view's home and identity pool, read with the area's own (functions/sensor-data/wiring/live.ts).
  'sensor-data': [...Object.values(SENSOR_DATA_ENV), 'ENV_NAME', 'IDENTITY_POOL_ID'],
  system: Object.values(SYSTEM_ENV),
  users: [...Object.values(USERS_ENV), ...STRIPE_KEY],
};

const OTHER_VARIABLES: Record<string, readonly string[]> = {
  'the NotificationsWorker worker': Object.values(NOTIFICATIONS_WORKER_ENV),
  'the SensorDataWorker worker': Object.values(SENSOR_DATA_ENV),
  'the DatasetsWorker worker': Object.values(DATASETS_ENV),
  'the CodeReleasesWorker worker': Object.values(CODE_RELEASES_ENV),
  'the IntegrationsWorker worker': WEBHOOK_SECRETS,
  'the UsersDeletionJob job': Object.values(ACCOUNT_ENV),
  'the AlertsSweepJob job': Object.values(ALERTS_ENV),
  'the MigrationsRunner deploy hook': Object.values(MIGRATE_ENV),
  'the DataIngressReadings IoT rule': Object.values(DATA_INGRESS_ENV),
  'the DeviceMqttAuthorizer IoT custom authorizer': Object.values(MQTT_AUTHORIZER_ENV),
};

type Fn = { Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } } };

const templates = synthesizedTemplates('prod');

const functionsOf = (template: ReturnType<typeof areaTemplate>) =>
  Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).map((resource) => {
    const fn = resource as unknown as Fn;
    return {
      description: String(fn.Properties.Description ?? ''),
      variables: Object.keys(fn.Properties.Environment?.Variables ?? {}),
    };
  });

const missing = (variables: readonly string[], needed: readonly string[]) =>
  needed.filter((name) => !variables.includes(name));

describe('every function is given each variable it reads at cold start (prod)', () => {
  const areas = areasWithStacks();
  const functions = areas.flatMap((area) => functionsOf(areaTemplate(templates, area)).map((fn) => ({ area, ...fn })));

  it.each(areas.filter((area) => functions.some((fn) => fn.description.startsWith(`the ${area} API `))))(
    "the %s area's API",
    (area) => {
      const api = functions.find((fn) => fn.description.startsWith(`the ${area} API `))!;
      expect(missing(api.variables, [...API_VARIABLES[area], ...CHAIN])).toEqual([]);
    },
  );

  it.each(Object.entries(OTHER_VARIABLES))('%s', (name, needed) => {
    const found = functions.filter((fn) => fn.description.startsWith(`${name} (`));
    expect(found).toHaveLength(1);
    expect(missing(found[0]!.variables, needed)).toEqual([]);
  });

  it("the identity provider's triggers", () => {
    const triggers = functionsOf(templates.auth).filter((fn) => fn.description.includes('identity triggers'));
    const recording = triggers.filter((fn) => fn.variables.includes('AUTH_EVENTS_TABLE'));
    expect(recording).toHaveLength(1);
    expect(missing(recording[0]!.variables, Object.values(IDENTITY_EVENTS_ENV))).toEqual([]);
    // The PreSignUp trigger's one setting (functions/users/wiring/pre-sign-up.ts).
    expect(triggers.filter((fn) => fn.variables.includes('LINKING_TRUSTED_PROVIDERS'))).toHaveLength(1);
  });
});
