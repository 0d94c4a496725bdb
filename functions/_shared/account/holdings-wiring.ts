import { createRuleTable } from '../alerts/rule-table';
import { devicesOfTarget } from '../alerts/rule-targets';
import { createRulesOfPerson } from '../alerts/rules-of-person';
import { createStateTouches } from '../alerts/state-table';
import { touchTargets } from '../alerts/target-touches';
import { getDocumentClient } from '../clients';
import { createCreatorWebhooks } from '../integrations/creator-webhooks';
import { createWebhooksOfPerson } from '../integrations/webhooks-of-person';
import { log } from '../logger';
import { createRelationTable } from '../relations/relation-table';

/**
 * The tables of other areas that account deletion reaches (docs/users.md, "The purge"): the alerts area's rules and
 * device states, the integrations area's webhooks and their deliveries, and the relations that say where they apply.
 * SERVICE_RESOURCES.users grants the users area's Lambda and its deletion job these.
 */
export const PERSON_HOLDINGS_ENV = {
  alertRulesTable: 'ALERT_RULES_TABLE',
  alertStatesTable: 'ALERT_STATES_TABLE',
  webhooksTable: 'WEBHOOKS_TABLE',
  webhookDeliveriesTable: 'WEBHOOK_DELIVERIES_TABLE',
  relationsTable: 'RELATIONS_TABLE',
} as const;

export type PersonHoldingsEnv = Record<keyof typeof PERSON_HOLDINGS_ENV, string>;

/** Each area's part of an account's deletion, over the real tables, in the order the purge runs them. */
export const createPersonHoldings = (env: PersonHoldingsEnv, now: () => number = Date.now) => {
  const db = getDocumentClient();
  const states = createStateTouches({ db, tableName: env.alertStatesTable });
  const relations = createRelationTable({ db, tableName: env.relationsTable });
  return [
    createRulesOfPerson({
      rules: createRuleTable({ db, tableName: env.alertRulesTable }),
      states,
      relations,
      now,
      log,
    }),
    createWebhooksOfPerson({
      webhooks: createCreatorWebhooks({
        db,
        webhooksTable: env.webhooksTable,
        deliveriesTable: env.webhookDeliveriesTable,
      }),
      presence: (targets) => touchTargets({ states, devicesOf: devicesOfTarget(relations), now }, targets),
      now,
      log,
    }),
  ];
};
