import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { LIVE, type StoredRollout } from '../../_shared/code-releases/rollout-item';
import { deleteIfExists, putIf, queryPage, updateIf } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import type { RolloutStore } from '../domain/ports';

type Key = Record<string, unknown>;

/** An update's parts. DynamoDB refuses a name or value its expressions do not use: each is added with its use. */
type UpdateParts = { names: Record<string, string>; values: Record<string, unknown>; add: string[] };

/**
 * ADDs a map's non-zero counts under a path of attribute names (`[placeholder, name]`, outermost first); `tag` keeps
 * the placeholders of two maps apart. Value placeholders drop underscores, which `timed_out` has.
 */
const addCounts = (
  parts: UpdateParts,
  path: [string, string][],
  tag: string,
  counts: Partial<Record<string, number>>,
): void => {
  for (const [key, n] of Object.entries(counts)) {
    if (!n) continue;
    for (const [placeholder, name] of path) parts.names[placeholder] = name;
    const slot = `${tag}${key.replace(/_/g, '')}`;
    parts.names[`#${slot}`] = key;
    parts.add.push(`${path.map(([placeholder]) => placeholder).join('.')}.#${slot} :${slot}`);
    parts.values[`:${slot}`] = n;
  }
};

/**
 * Rollouts (docs/code-releases.md); their counters move by atomic ADDs (functions/_shared/code-releases), their stages
 * by conditional writes on the stage read, so two advancements at once advance once.
 */
export const createRolloutStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): RolloutStore => ({
  create: (rollout: StoredRollout): Promise<boolean> =>
    putIf(db, { TableName: tableName, Item: rollout, ConditionExpression: 'attribute_not_exists(id)' }),

  remove: (id: string): Promise<boolean> => deleteIfExists(db, tableName, id),

  get: async (id: string): Promise<StoredRollout | undefined> =>
    (await db.send(new GetCommand({ TableName: tableName, Key: { id }, ConsistentRead: true }))).Item as
      | StoredRollout
      | undefined,

  page: (releaseId: string, limit: number, startKey?: Key) =>
    queryPage<StoredRollout>(
      db,
      {
        TableName: tableName,
        IndexName: 'byRelease',
        KeyConditionExpression: 'releaseId = :release',
        ExpressionAttributeValues: { ':release': releaseId },
        ScanIndexForward: false,
      },
      { limit, startKey },
    ),

  // The index is eventually consistent: the job reads each rollout again by key before it writes.
  live: () =>
    readAll((startKey) =>
      queryPage<StoredRollout>(
        db,
        {
          TableName: tableName,
          IndexName: 'live',
          KeyConditionExpression: 'live = :live',
          ExpressionAttributeValues: { ':live': LIVE },
        },
        { startKey },
      ),
    ),

  setAssigned: async (id, { skipped, stageDevices, stageCounts }) => {
    const names: Record<string, string> = { '#sc': 'stageCounts' };
    const values: Record<string, unknown> = { ':skipped': skipped };
    const set = ['skipped = :skipped'];
    const add: string[] = [];
    stageDevices.forEach((devices, stage) => {
      set.push(`stages[${stage}].devices = :d${stage}`);
      values[`:d${stage}`] = devices;
      addCounts(
        { names, values, add },
        [
          ['#sc', 'stageCounts'],
          [`#s${stage}`, String(stage)],
        ],
        `c${stage}`,
        stageCounts[stage] ?? {},
      );
    });
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: `SET ${set.join(', ')}${add.length ? ` ADD ${add.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  },

  commitStep: async (id, step) => {
    // DynamoDB refuses a name or value the expressions do not use: each is added with what uses it.
    const names: Record<string, string> = { '#status': 'status', '#prep': 'preparing' };
    const values: Record<string, unknown> = { ':preparing': 'preparing', ':to': step.to, ':assigned': step.assigned };
    const set = ['prepareCursor = :to'];
    const add = ['#prep.assigned :assigned'];
    if (step.refused.length > 0) {
      set.push('refusedPending = :refused');
      values[':refused'] = step.refused;
    }
    const parts = { names, values, add };
    addCounts(parts, [['#counts', 'counts']], 'c', step.counts);
    addCounts(parts, [['#skipped', 'skipped']], 'k', step.skipped);
    step.stageDevices.forEach((devices, stage) => {
      if (!devices) return;
      set.push(`stages[${stage}].devices = stages[${stage}].devices + :d${stage}`);
      values[`:d${stage}`] = devices;
    });
    step.stageCounts.forEach((change, stage) => {
      addCounts(
        parts,
        [
          ['#sc', 'stageCounts'],
          [`#s${stage}`, String(stage)],
        ],
        `s${stage}`,
        change,
      );
    });
    if (step.from !== undefined) values[':from'] = step.from;
    return (
      (await updateIf(db, {
        TableName: tableName,
        Key: { id },
        UpdateExpression: `SET ${set.join(', ')} ADD ${add.join(', ')}`,
        ConditionExpression: `#status = :preparing AND ${step.from === undefined ? 'attribute_not_exists(prepareCursor)' : 'prepareCursor = :from'}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      })) !== undefined
    );
  },

  clearRefused: async (id) => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'REMOVE refusedPending',
      ConditionExpression: 'attribute_exists(id)',
    });
  },

  activate: async (id, at) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression:
        'SET #status = :active, live = :live, soakFrom = :at, stages[0].started = :at REMOVE preparing, prepareCursor',
      ConditionExpression: '#status = :preparing AND attribute_not_exists(refusedPending)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'active', ':preparing': 'preparing', ':live': LIVE, ':at': at },
      ReturnValues: 'ALL_NEW',
    })) as StoredRollout | undefined,

  advance: async (id, { from, to, at }) => {
    const started = Array.from({ length: to - from }, (_, i) => from + 1 + i);
    return (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: `SET currentStage = :to, soakFrom = :at, ${started.map((stage) => `stages[${stage}].started = :at`).join(', ')} REMOVE baseline`,
      ConditionExpression: 'attribute_exists(id) AND #status = :active AND currentStage = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':to': to, ':from': from, ':at': at, ':active': 'active' },
      ReturnValues: 'ALL_NEW',
    })) as StoredRollout | undefined;
  },

  complete: async (id, { stage, completed }) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET completed = :at REMOVE live',
      ConditionExpression:
        'attribute_exists(id) AND #status = :active AND currentStage = :stage AND attribute_not_exists(completed)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':at': completed, ':stage': stage, ':active': 'active' },
    })) !== undefined,

  resume: async (id, { halted, resumed, resumedBy, baseline }) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression:
        'SET #status = :active, resumed = :at, resumedBy = :by, baseline = :baseline, soakFrom = :at, live = :live',
      ConditionExpression: 'attribute_exists(id) AND #status = :halted AND halted = :halted_at',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':halted': 'halted',
        ':halted_at': halted,
        ':at': resumed,
        ':by': resumedBy,
        ':baseline': baseline,
        ':live': LIVE,
      },
      ReturnValues: 'ALL_NEW',
    })) as StoredRollout | undefined,

  resumePreparing: async (id, { halted, resumed, resumedBy }) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET #status = :preparing, resumed = :at, resumedBy = :by',
      // Only a rollout never made active still holds `preparing`: one halted after must resume offering instead.
      ConditionExpression:
        'attribute_exists(id) AND #status = :halted AND halted = :halted_at AND attribute_exists(#prep)',
      ExpressionAttributeNames: { '#status': 'status', '#prep': 'preparing' },
      ExpressionAttributeValues: {
        ':preparing': 'preparing',
        ':halted': 'halted',
        ':halted_at': halted,
        ':at': resumed,
        ':by': resumedBy,
      },
      ReturnValues: 'ALL_NEW',
    })) as StoredRollout | undefined,

  unresumePreparing: async (id, resumed) => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET #status = :halted',
      ConditionExpression: 'attribute_exists(id) AND #status = :preparing AND resumed = :at',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':halted': 'halted', ':preparing': 'preparing', ':at': resumed },
    });
  },

  markRolledBack: async (id, rollback) =>
    (await updateIf(db, {
      TableName: tableName,
      Key: { id },
      // ROLLBACK is one of DynamoDB's reserved words.
      UpdateExpression: 'SET #status = :rolledBack, #rollback = :rollback',
      ConditionExpression: 'attribute_exists(id) AND #status <> :rolledBack',
      ExpressionAttributeNames: { '#status': 'status', '#rollback': 'rollback' },
      ExpressionAttributeValues: { ':rolledBack': 'rolled-back', ':rollback': rollback },
    })) !== undefined,

  unmarkRolledBack: async (id, rolloutId) => {
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET #status = :halted REMOVE #rollback',
      ConditionExpression: 'attribute_exists(id) AND #rollback.rolloutId = :rollout',
      ExpressionAttributeNames: { '#status': 'status', '#rollback': 'rollback' },
      ExpressionAttributeValues: { ':halted': 'halted', ':rollout': rolloutId },
    });
  },

  markAnnounced: async (id, halted) => {
    // Off the job's index once nothing more is to be done on it; an active rollout (resumed) stays on it.
    const done = await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET haltNotified = :halted REMOVE live',
      ConditionExpression: 'attribute_exists(id) AND #status <> :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':halted': halted, ':active': 'active' },
    });
    if (done) return;
    await updateIf(db, {
      TableName: tableName,
      Key: { id },
      UpdateExpression: 'SET haltNotified = :halted',
      ConditionExpression: 'attribute_exists(id)',
      ExpressionAttributeValues: { ':halted': halted },
    });
  },
});
