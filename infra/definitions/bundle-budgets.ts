import { AREA_NAMES } from '../../shared/contracts/areas';
import {
  COGNITO_TRIGGERS,
  DEPLOY_HOOKS,
  handlerEntry,
  hasRoutes,
  IOT_AUTHORIZERS,
  IOT_RULES,
  SCHEDULED_JOBS,
  WORKERS,
} from './services';

/**
 * Issue 20's goal for every function, measured on the development machine (2 cores): the minified bundle and the time
 * Node takes to import it in a fresh process. `npm run bench` prints each function beside it.
 */
export const BUNDLE_GOAL = { kilobytes: 350, importMs: 60 } as const;

/** Every Lambda the CDK bundles, by a readable name and its entry (relative to the project root). */
export const lambdaEntries = (): { name: string; entry: string }[] => [
  ...AREA_NAMES.filter(hasRoutes).map((area) => ({ name: `${area} API`, entry: handlerEntry(area) })),
  ...[...WORKERS, ...COGNITO_TRIGGERS, ...SCHEDULED_JOBS, ...DEPLOY_HOOKS, ...IOT_RULES, ...IOT_AUTHORIZERS].map(
    ({ name, entry }) => ({
      name,
      entry,
    }),
  ),
];

/**
 * The most each bundle may weigh (KB of 1,024 bytes, minified), a little above what it weighs today: a test fails when
 * one grows past it, so growth is a reviewed change to this table. Where a budget is above the goal the reason is what
 * the function must carry (docs/decisions/029-small-lambdas.md): the SDK's DynamoDB, SQS and S3 clients with their
 * shared core are about 300 KB; Stripe's SDK, 240 KB, cannot be cut to the resources one calls.
 */
export const BUNDLE_BUDGETS_KB: Record<string, number> = {
  'functions/alerts/handler.ts': 500,
  'functions/api/handler.ts': 930,
  'functions/campaigns/handler.ts': 480,
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  // SQS's client since decision 114 (a start of more than 1,000 devices sends its first step to the rollouts queue),
  // to 669 KB.
  'functions/code-releases/handler.ts': 675,
  'functions/customer/handler.ts': 730,
  // The alerts evaluator after each stored batch (issue 37): the rule cache, the state machine, the jobs queue's
  // publisher for fired alerts and the access checks of their recipients. The webhook publisher (issue 38: the
  // readings.received and alert events, the lanes' table and queue) beside it.
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/data-ingress/handler.ts': 705,
  // The Parquet writer (hyparquet-writer, about 52 KB, decision 072) since issue 41: the API's wiring shares the
  // build's with the worker, which writes the files.
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/datasets/handler.ts': 710,
  'functions/devices/handler.ts': 485,
  'functions/migrate/handler.ts': 480,
  'functions/notifications/handler.ts': 780,
  'functions/organizations/handler.ts': 660,
  'functions/relations/handler.ts': 480,
  // The SensorThings API's OData parser (about 140 KB with its helpers) since issue 41 (decision 071), and the Parquet
  // writer (about 52 KB, decision 072), which the exports' wiring shares with the worker.
  // Measured with issues 37, 39, 40 and 41 merged together (alerts at ingest, quality flags and profiles, Parquet).
  // The calibration end (decision 103) to 1,096 KB.
  'functions/sensor-data/handler.ts': 1100,
  'functions/system/handler.ts': 675,
  'functions/users/handler.ts': 1070,
  'functions/integrations/handler.ts': 550,
  'functions/notifications/worker.ts': 830,
  // Both write Parquet files since issue 41 (hyparquet-writer, about 52 KB, decision 072).
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/sensor-data/worker.ts': 690,
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/datasets/worker.ts': 665,
  // The area's wiring (the KMS and SQS clients among it).
  'functions/integrations/worker.ts': 500,
  // DynamoDB's and SQS's clients, as the stage job: a step of a preparing rollout sends the next (decision 114).
  'functions/code-releases/worker.ts': 440,
  // The Cognito client since issue 21 (a federated sign-up joins Authenticated_users).
  'functions/users/identity-events.ts': 310,
  'functions/users/pre-sign-up.ts': 300,
  'functions/users/deletion-job.ts': 590,
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/alerts/sweep-job.ts': 440,
  'functions/migrate/deploy.ts': 440,
  // DynamoDB's client and the contract's report schema; no S3, no SQS (its deps leave the offer's S3 client out).
  // The device-seen store's record cache (decision 102), which it shares with ingest, to 390 KB.
  'functions/data-ingress/iot-firmware-status.ts': 395,
  // DynamoDB's and SQS's clients (a halt is announced on the jobs queue). The rollouts' stores with the preparing
  // steps (decision 114) to 433 KB.
  'functions/code-releases/rollout-job.ts': 440,
  // Measured with issues 37 to 41 merged together (alerts and webhooks at ingest, quality flags and profiles, Parquet).
  'functions/data-ingress/iot-readings.ts': 505,
  'functions/data-ingress/mqtt-authorizer.ts': 270,
};
