import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLES } from '../../functions/_shared/tables';
import { BUCKETS, QUEUES } from '../definitions/storage';
import { LOCAL_CREDENTIALS } from './emulators/listen';
import { runLocalMigrations } from './migrations';
import { StackInfo } from './stack-info';

/**
 * `npm run migrate`: the pending migrations against the running local stack (`npm start` also runs them at every
 * start), then every migration's state. In the cloud a deploy runs them (docs/migrations.md).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stackFile = path.join(process.argv[2] ?? path.join(rootDir, '.local'), 'stack.json');

const info = await readFile(stackFile, 'utf8')
  .then((text) => StackInfo.parse(JSON.parse(text)))
  .catch(() => undefined);
const running = (() => {
  if (!info) return false;
  try {
    process.kill(info.pid, 0);
    return true;
  } catch {
    return false;
  }
})();
if (!info || !running) {
  console.error(
    `No local stack is running (${stackFile}). Start it with \`npm start\`: it runs pending migrations too.`,
  );
  process.exit(1);
}

Object.assign(process.env, {
  AWS_REGION: info.region,
  AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
  AWS_ENDPOINT_URL_SQS: info.endpoints.sqs,
  ACCESS_INDEX_SETTLE_MS: '0',
  ...Object.fromEntries(Object.entries(TABLES).map(([key, t]) => [t.envVar, info.tables[key]])),
  ...Object.fromEntries(Object.entries(BUCKETS).map(([key, b]) => [b.envVar, info.buckets[key]])),
  ...Object.fromEntries(Object.entries(QUEUES).map(([key, q]) => [q.envVar, info.queues[key]])),
});

const run = await runLocalMigrations('npm run migrate', (line) => console.log(line));
console.table(
  run.migrations.map((migration) => ({
    id: migration.id,
    status: migration.status,
    ...migration.counts,
    finished: migration.finishedAt ? new Date(migration.finishedAt).toISOString() : '',
  })),
);
process.exit(run.failed ? 1 : 0);
