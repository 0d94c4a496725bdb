import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TABLES } from '../../functions/_shared/tables';
import { BUCKETS, QUEUES } from '../../infra/definitions/storage';
import { MAIL_FROM } from '../../infra/local/emulators/cognito';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { stack } from './stack';

/**
 * The variables the CDK gives a Lambda, pointed at this run's stack (as infra/local/stack.ts does), for tests that
 * run a job or worker module in-process. Returns the function that puts the variables back: test files that run
 * after this one in the same process must not see them.
 */
export const useStackEnvironment = () => {
  const info = stack();
  const saved = { ...process.env };
  Object.assign(process.env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: info.endpoints.sqs,
    AWS_ENDPOINT_URL_S3: info.endpoints.s3,
    S3_FORCE_PATH_STYLE: 'true',
    // As the local stack: no CloudWatch reads the functions' EMF lines here (decision 030).
    POWERTOOLS_METRICS_DISABLED: 'true',
    AWS_ENDPOINT_URL_SESV2: info.endpoints.ses,
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: info.endpoints.cognito,
    ...Object.fromEntries(
      Object.entries(TABLES)
        .filter(([key]) => info.tables[key])
        .map(([key, table]) => [table.envVar, info.tables[key]]),
    ),
    ...Object.fromEntries(
      Object.entries(BUCKETS)
        .filter(([key]) => (info.buckets as Record<string, string | undefined>)[key])
        .map(([key, bucket]) => [bucket.envVar, (info.buckets as Record<string, string>)[key]]),
    ),
    ...Object.fromEntries(
      Object.entries(QUEUES)
        .filter(([key]) => (info.queues as Record<string, string | undefined>)[key])
        .map(([key, queue]) => [queue.envVar, (info.queues as Record<string, string>)[key]]),
    ),
    USER_POOL_ID: info.auth.userPoolId,
    MAIL_FROM,
    WEB_ORIGIN: info.endpoints.web ?? 'http://localhost:5173',
    AREA_API_URL: `${info.endpoints.gateway}/notifications`,
    // As the local stack: webhooks to localhost, their secrets sealed with the data folder's key.
    WEBHOOK_TARGETS: 'local',
    WEBHOOK_SECRETS_LOCAL_KEY: readFileSync(path.join(info.dataDir, 'webhook-secrets.key'), 'utf8').trim(),
  });
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  };
};
