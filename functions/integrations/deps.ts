import { randomUUID } from 'node:crypto';
import { ACCESS_ENV, createAccessModule } from '../_shared/access/access-wiring';
import { devicesOfTarget } from '../_shared/alerts/rule-targets';
import { createStateTouches } from '../_shared/alerts/state-table';
import { touchTargets } from '../_shared/alerts/target-touches';
import { getDocumentClient, getKmsClient, getSqsClient } from '../_shared/clients';
import { type EnvSource, readChoiceEnv, readEnv } from '../_shared/env';
import { createEventPublisher } from '../_shared/events/event-publisher';
import { createLaneWakeSender, createWebhookOutbox } from '../_shared/integrations/webhook-outbox';
import { log } from '../_shared/logger';
import { createRelationTable } from '../_shared/relations/relation-table';
import { createLanes, RUN_BUDGET_MS } from './domain/lanes';
import type { PresenceWatches } from './domain/ports';
import { TARGET_POLICIES, type TargetPolicy, WEBHOOK_TARGETS_ENV } from './domain/target-policy';
import { newSecret, newWebhookId } from './domain/webhook-rules';
import { createWebhooks } from './domain/webhooks';
import { createDeliveryStore } from './store/delivery-store';
import { createHttpSender } from './store/http-sender';
import { createLaneTimers } from './store/lane-timers';
import { createKmsSecretBox, createLocalSecretBox, readSecretBoxEnv, type SecretBoxSource } from './store/secret-box';
import { createTargetDirectory } from './store/target-directory';
import { createWebhookStore } from './store/webhook-store';

/** What the integrations Lambda and its worker read (SERVICE_RESOURCES.integrations; the local stack too). */
export const INTEGRATIONS_ENV = {
  ...ACCESS_ENV,
  /** The alerts area's per-device state: a presence webhook's target's devices are touched there (decision 105). */
  alertStatesTable: 'ALERT_STATES_TABLE',
  webhooksTable: 'WEBHOOKS_TABLE',
  webhookDeliveriesTable: 'WEBHOOK_DELIVERIES_TABLE',
  devicesTable: 'DEVICES_TABLE',
  organizationsTable: 'ORGANIZATIONS_TABLE',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  webhooksQueueUrl: 'WEBHOOKS_QUEUE_URL',
} as const;

export interface IntegrationsEnv extends Record<keyof typeof INTEGRATIONS_ENV, string> {
  /** Where the signing secrets are sealed: KMS in the cloud, a local key on one machine. */
  secretBox: SecretBoxSource;
  /** Where webhooks may be sent (WEBHOOK_TARGETS): `public` in the cloud, `local` on one machine. */
  targets: TargetPolicy;
}

/** The area's environment, read once at an entry's cold start; a missing variable stops it, naming it. */
export const readIntegrationsEnv = (env?: EnvSource): IntegrationsEnv => ({
  ...readEnv(INTEGRATIONS_ENV, env),
  secretBox: readSecretBoxEnv(env),
  targets: readChoiceEnv(WEBHOOK_TARGETS_ENV, TARGET_POLICIES, 'public', env),
});

/**
 * One lane run's budget of real time, whatever the clock the lane is given says (a test's or the bench's fixed one).
 */
const realBudget = (ms: number) => () => {
  const started = performance.now();
  return () => performance.now() - started > ms;
};

/** Stand-ins for what a caller measures or fixes: the bench's clock and receiver policy, a test's fixed clock. */
export interface IntegrationsOptions {
  now?: () => number;
  random?: () => number;
  /** Overrides the environment's target policy (a test of the cloud's rules on this machine). */
  targets?: TargetPolicy;
  /** The lanes' owner (a fixed-clock test holds a lane under it, so the stack's worker leaves it alone). */
  owner?: string;
}

/** Everything the area's entries use, built once per cold start from the environment. */
export const createIntegrationsDeps = (env: IntegrationsEnv, options: IntegrationsOptions = {}) => {
  const db = getDocumentClient();
  const now = options.now ?? Date.now;
  const policy = options.targets ?? env.targets;
  const store = createWebhookStore({ db, tableName: env.webhooksTable });
  const deliveries = createDeliveryStore({ db, tableName: env.webhookDeliveriesTable });
  const wakes = createLaneWakeSender({ sqs: getSqsClient(), queueUrl: env.webhooksQueueUrl });
  const outbox = createWebhookOutbox({ db, tableName: env.webhookDeliveriesTable, wakes, now });
  const secrets =
    'keyArn' in env.secretBox
      ? createKmsSecretBox({ kms: getKmsClient(), keyArn: env.secretBox.keyArn })
      : createLocalSecretBox(env.secretBox.localKey);
  const targets = createTargetDirectory({
    db,
    tables: { device: env.devicesTable, campaign: env.campaignsTable, organization: env.organizationsTable },
  });
  // The devices a presence webhook's target holds are the ones an alert rule's would watch (decision 105).
  const devicesOf = devicesOfTarget(createRelationTable({ db, tableName: env.relationsTable }));
  const touches = createStateTouches({ db, tableName: env.alertStatesTable });
  const presence: PresenceWatches = {
    changed: async (kind, id) => {
      await touchTargets({ states: touches, devicesOf, now }, [{ kind, id }]);
    },
  };
  return {
    webhooks: createWebhooks({
      store,
      deliveries,
      outbox,
      secrets,
      targets,
      presence,
      access: createAccessModule(env),
      policy,
      now,
      newId: newWebhookId,
      newSecret,
      log,
    }),
    lanes: createLanes({
      webhooks: store,
      deliveries,
      sender: createHttpSender({ policy }),
      secrets,
      timers: createLaneTimers({ wakes }),
      notices: createEventPublisher({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl }),
      presence,
      now,
      random: options.random ?? Math.random,
      newToken: randomUUID,
      startBudget: realBudget(RUN_BUDGET_MS),
      owner: options.owner ?? (() => randomUUID()),
      log,
    }),
  };
};

export type IntegrationsDeps = ReturnType<typeof createIntegrationsDeps>;
