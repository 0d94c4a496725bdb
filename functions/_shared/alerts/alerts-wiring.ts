import { randomUUID } from 'node:crypto';
import type { Caller } from '../../../shared/auth/verify-token';
import type { AlertTarget } from '../../../shared/contracts/alerts';
import type { AlertChanged } from '../../../shared/contracts/events';
import { ACCESS_ENV, createAccessModule } from '../access/access-wiring';
import { getDocumentClient, getSqsClient } from '../clients';
import { readWholeNumberEnv } from '../env';
import { createEventPublisher } from '../events/event-publisher';
import type { WebhookPublisher } from '../integrations/webhook-publisher';
import {
  createWebhookDirectoryOf,
  createWebhookPublisherOf,
  WEBHOOK_PUBLISHER_ENV,
} from '../integrations/webhook-wiring';
import { log } from '../logger';
import { createRelationTable } from '../relations/relation-table';
import { createEffects } from './alert-effects';
import { createAlertEvaluator } from './alert-evaluator';
import { createAlertTable } from './alert-table';
import { createDeviceReader } from './device-reader';
import { createDeviceRules } from './device-rules';
import { createRuleTable } from './rule-table';
import { createStateTable } from './state-table';

/**
 * What every function that evaluates alerts reads (data-ingress after a stored batch; the alerts area's API and
 * sweep): the alerts tables, the devices (names, last readings), the relations and access behind a device's rules
 * and its recipients, the jobs queue their notifications go on, and the webhooks their alert.fired and
 * alert.resolved go to (relations among them).
 */
export const ALERT_EVALUATION_ENV = {
  ...ACCESS_ENV,
  ...WEBHOOK_PUBLISHER_ENV,
  alertRulesTable: 'ALERT_RULES_TABLE',
  alertsTable: 'ALERTS_TABLE',
  alertStatesTable: 'ALERT_STATES_TABLE',
  devicesTable: 'DEVICES_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

export type AlertEvaluationEnv = Record<keyof typeof ALERT_EVALUATION_ENV, string>;

/** How often an instance asks whether any rule changed (ms): see DeviceRulesOptions.checkEveryMs. */
const RULES_CHECK_MS_ENV = 'ALERT_RULES_CHECK_MS';

/** A person as the access module asks about them when they are a recipient, not the caller: their relations only. */
const asRecipient = (userId: string): Caller => ({
  sub: userId,
  username: userId,
  groups: [],
  tokenUse: 'access',
  issuedAt: 0,
  authTime: 0,
});

/**
 * The shared parts of alert evaluation over the real tables, once per cold start: the per-instance rule cache, the
 * state and alert tables, the effects (with the recipients' access and the webhooks), and the evaluator ingest calls.
 * `webhooks`: a publisher the caller already has (ingest's, for readings.received), else one of its own.
 */
export const createAlertEvaluation = (
  env: AlertEvaluationEnv,
  {
    now = Date.now,
    webhooks,
  }: { now?: () => number; webhooks?: Pick<WebhookPublisher, 'alertChanged' | 'presenceChanged'> } = {},
) => {
  const db = getDocumentClient();
  const rules = createRuleTable({ db, tableName: env.alertRulesTable });
  const states = createStateTable({ db, tableName: env.alertStatesTable, devicesTable: env.devicesTable });
  const alerts = createAlertTable({ db, tableName: env.alertsTable });
  const devices = createDeviceReader({ db, tableName: env.devicesTable });
  const relations = createRelationTable({ db, tableName: env.relationsTable });
  const access = createAccessModule(env);
  const events = createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl });
  const webhookDirectory = createWebhookDirectoryOf(env, now);
  const deviceRules = createDeviceRules({
    source: {
      enabledOf: rules.enabledOf,
      watchesPresence: webhookDirectory.watchesPresence,
      holders: async (deviceId) => {
        const held = await relations.queryAll('referent', deviceId, ['campaign-device', 'organization-device']);
        return {
          campaigns: held.filter((r) => r.type === 'campaign-device').map((r) => r.referrerId),
          organizations: held.filter((r) => r.type === 'organization-device').map((r) => r.referrerId),
        };
      },
      generation: states.generation,
    },
    now,
    checkEveryMs: readWholeNumberEnv(RULES_CHECK_MS_ENV, 1_000),
  });
  const mayView = async (userId: string, target: AlertTarget) =>
    (await access.forCaller(asRecipient(userId)).check(target.kind, target.id)).allowed;
  const effects = createEffects({
    alerts,
    states,
    devices,
    mayView,
    send: (messages: AlertChanged[]) => events.publish(messages),
    webhooks: webhooks ?? createWebhookPublisherOf(env, now),
    log,
  });
  return {
    rules,
    states,
    alerts,
    devices,
    relations,
    access,
    mayView,
    deviceRules,
    effects,
    evaluator: createAlertEvaluator({ rules: deviceRules, states, effects, now, newId: randomUUID, log }),
  };
};

export type AlertEvaluation = ReturnType<typeof createAlertEvaluation>;
