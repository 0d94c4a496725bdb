import { randomUUID } from 'node:crypto';
import type { Caller } from '../../shared/auth/verify-token';
import type { AlertTarget } from '../../shared/contracts/alerts';
import { ALERT_EVALUATION_ENV, type AlertEvaluation, createAlertEvaluation } from '../_shared/alerts/alerts-wiring';
import { getDocumentClient } from '../_shared/clients';
import { log } from '../_shared/logger';
import { createDataAccess } from '../_shared/sensor-data/data-access';
import { createDeviceTiers } from '../_shared/sensor-data/device-tier';
import { createReadingsStore } from '../_shared/sensor-data/readings-store';
import { createEvents } from './domain/events';
import { createPreview } from './domain/preview';
import { createRules } from './domain/rules';
import { createSweep } from './domain/sweep';
import { createPreviewReadings } from './store/preview-readings';
import { createSweepSources } from './store/sweep-sources';
import { createTargetReader } from './store/target-reader';

/** What the alerts Lambda and its sweep read (SERVICE_RESOURCES.alerts; the local stack too). */
export const ALERTS_ENV = {
  ...ALERT_EVALUATION_ENV,
  readingsTable: 'READINGS_TABLE',
  deviceSubscriptionsTable: 'DEVICE_SUBSCRIPTIONS_TABLE',
  /** The system area's; read only for the `tier-features` parameter (a preview reads what the chart may). */
  parametersTable: 'PARAMETERS_TABLE',
} as const;

export type AlertsEnv = Record<keyof typeof ALERTS_ENV, string>;

/** The sweep alone (sweep-job.ts): the evaluation's parts and what it reads beyond the alert state. */
const sweepOf = (env: AlertsEnv, evaluation: AlertEvaluation) =>
  createSweep({
    states: evaluation.states,
    rules: evaluation.deviceRules,
    devices: evaluation.devices,
    sources: createSweepSources({
      db: getDocumentClient(),
      readingsTable: env.readingsTable,
      subscriptionsTable: env.deviceSubscriptionsTable,
    }),
    effects: evaluation.effects,
    log,
    clock: Date.now,
    newId: randomUUID,
  });

export const createSweepDeps = (env: AlertsEnv) => ({ sweep: sweepOf(env, createAlertEvaluation(env)) });

/** The area's routes, built once per cold start from the env its entry read. */
export const createAlertsDeps = (env: AlertsEnv) => {
  const db = getDocumentClient();
  const evaluation = createAlertEvaluation(env);
  const { rules, states, alerts, devices, relations, access, mayView, effects } = evaluation;
  const targets = createTargetReader({ relations, devices });
  const tiers = createDeviceTiers({
    db,
    tableName: env.deviceSubscriptionsTable,
    parametersTable: env.parametersTable,
  });
  const mayManage = async (caller: Caller, target: AlertTarget) =>
    (await access.forCaller(caller).check(target.kind, target.id, { need: 'manage' })).allowed;
  return {
    rules: createRules({ rules, states, targets, access, mayView, log, now: Date.now, newId: randomUUID }),
    preview: createPreview({
      dataAccess: createDataAccess({ db, devicesTable: env.devicesTable, access, tiers }),
      mayManage,
      targets,
      readings: createPreviewReadings(createReadingsStore({ db, tableName: env.readingsTable })),
      now: Date.now,
    }),
    events: createEvents({ alerts, rules, states, effects, targets, access, log, now: Date.now }),
  };
};

export type AlertsDeps = ReturnType<typeof createAlertsDeps>;
