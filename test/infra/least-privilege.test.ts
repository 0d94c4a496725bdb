import type { Template } from 'aws-cdk-lib/assertions';
import { TABLES, type TableKey } from '../../functions/_shared/tables';
import type { CloudEnvName } from '../../infra/app';
import {
  AUDIT_LOG_ACCESS,
  COGNITO_TRIGGERS,
  DEPLOY_HOOKS,
  IOT_AUTHORIZERS,
  IOT_RULES,
  SCHEDULED_JOBS,
  SERVICE_RESOURCES,
  SESSION_TABLE,
  WORKERS,
} from '../../infra/definitions/services';
import { BUCKETS, type BucketKey, QUEUES, type QueueKey } from '../../infra/definitions/storage';
import { constructId } from '../../infra/services/construct-id';
import { AREA_NAMES, type AreaName } from '../../shared/contracts/areas';
import {
  ACTION_PATTERNS_ALLOWED,
  type AllowEntry,
  ANY_RESOURCE_ALLOWED,
  MANAGED_POLICIES_ALLOWED,
} from './least-privilege-allow-list';
import { resourcesOfType, synthesizedTemplates } from './synth';

/**
 * Least privilege, proven on the synthesized templates (docs/decisions/026-least-privilege-and-data-protection.md):
 * every statement of every role of every stack, nested area stacks included, is checked for `Resource: "*"` and
 * wildcard actions against a reviewed allow-list, and every grant on a table, bucket or queue against what the
 * role's area declares in infra/definitions/services.ts, at the level it declares (read, write, evict, archive, send).
 */

type Statement = { Effect?: string; Action: unknown; Resource: unknown; Condition?: Record<string, unknown> };
interface RoleGrants {
  stack: string;
  role: string;
  statements: Statement[];
  managed: string[];
}

const actionsOf = (statement: Statement) => [statement.Action].flat().map(String);
const resourcesOf = (statement: Statement) => [statement.Resource].flat();
const HASH = '[0-9A-F]{8}';

/** Every role of a template with the statements of its inline policies, the policies naming it, and managed ARNs. */
const rolesOf = (stack: string, template: Template): RoleGrants[] => {
  const policies = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'));
  return Object.entries(resourcesOfType(template, 'AWS::IAM::Role')).map(([role, resource]) => {
    const inline = ((resource.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[]) ?? []).flatMap(
      (p) => p.PolicyDocument.Statement,
    );
    const attached = policies
      .filter((p) => JSON.stringify(p.Properties.Roles ?? []).includes(`"${role}"`))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const managed = ((resource.Properties.ManagedPolicyArns as unknown[]) ?? []).map((arn) =>
      JSON.stringify(arn).replace(/.*:policy\/(service-role\/)?([A-Za-z]+).*/, '$2'),
    );
    return { stack, role, statements: [...inline, ...attached], managed };
  });
};

/** Statements of policies that attach to a role of another stack (the realtime stack's grant on the identity role). */
const foreignPolicies = (stack: string, template: Template): RoleGrants[] => {
  const roles = Object.keys(resourcesOfType(template, 'AWS::IAM::Role'));
  return Object.entries(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter(([, p]) => !roles.some((role) => JSON.stringify(p.Properties.Roles ?? []).includes(`"${role}"`)))
    .map(([id, p]) => ({
      stack,
      role: id,
      statements: (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement,
      managed: [],
    }));
};

const matching = (entries: AllowEntry[], role: string, action: string) =>
  entries.find((entry) => entry.role.test(role) && entry.actions.includes(action));

// --- what a declaration permits, per resource ---------------------------------------------------------------------

const TABLE_READ = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
];
const TABLE_WRITE = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
const KEY_READ = ['dynamodb:BatchGetItem', 'dynamodb:GetItem'];
const BUCKET_LEVELS = {
  buckets: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket'],
  evictBuckets: ['s3:DeleteObject', 's3:ListBucket'],
  archiveBuckets: ['s3:GetObject', 's3:GetObjectVersion', 's3:PutObject', 's3:AbortMultipartUpload'],
  readBuckets: ['s3:GetObject', 's3:GetObjectVersion'],
} as const;
const QUEUE_SEND = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
const QUEUE_CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

/** Which function of an area a role runs. */
type RoleKind = 'api' | 'job' | 'hook' | 'worker' | 'rule' | 'authorizer' | 'trigger' | 'other';
interface Declared {
  tables: Partial<Record<TableKey, string[]>>;
  buckets: Partial<Record<BucketKey, string[]>>;
  queues: Partial<Record<QueueKey, string[]>>;
  /** Other services' actions the declaration allows (IoT, Cognito, SES, Secrets Manager, KMS). */
  capabilities: string[];
}

const add = <K extends string>(into: Partial<Record<K, string[]>>, key: K, actions: readonly string[]) => {
  into[key] = [...new Set([...(into[key] ?? []), ...actions])];
};

/** What SERVICE_RESOURCES (and the audit log, the session check, a worker's own queue) lets one function do. */
const declaredFor = (area: AreaName, kind: RoleKind, consumes?: QueueKey): Declared => {
  const resources = SERVICE_RESOURCES[area];
  const declared: Declared = { tables: {}, buckets: {}, queues: {}, capabilities: [] };
  if (kind === 'other') return declared;
  // An IoT authorizer reads what IOT_AUTHORIZERS lists, by key, and nothing else of its area's declaration.
  if (kind === 'authorizer') {
    for (const authorizer of IOT_AUTHORIZERS.filter((a) => a.area === area)) {
      for (const table of authorizer.keyReadTables) add(declared.tables, table, KEY_READ);
    }
    return declared;
  }
  for (const table of resources.tables) add(declared.tables, table, [...TABLE_READ, ...TABLE_WRITE]);
  for (const table of resources.readTables ?? []) add(declared.tables, table, TABLE_READ);
  for (const table of resources.keyReadTables ?? []) add(declared.tables, table, KEY_READ);
  for (const table of Object.keys(resources.updateAttributes ?? {}) as TableKey[]) {
    add(declared.tables, table, ['dynamodb:UpdateItem']);
  }
  if (kind === 'api') {
    add(declared.tables, SESSION_TABLE, TABLE_READ);
    if (AUDIT_LOG_ACCESS[area].append) {
      add(declared.tables, 'auditLog', ['dynamodb:PutItem']);
      add(declared.tables, 'users', KEY_READ);
    }
    if (AUDIT_LOG_ACCESS[area].search) add(declared.tables, 'auditLog', ['dynamodb:Query']);
  }
  for (const level of Object.keys(BUCKET_LEVELS) as (keyof typeof BUCKET_LEVELS)[]) {
    for (const bucket of resources[level] ?? []) add(declared.buckets, bucket, BUCKET_LEVELS[level]);
  }
  if (resources.jobs) add(declared.queues, 'jobs', QUEUE_SEND);
  for (const queue of resources.queues ?? []) add(declared.queues, queue, QUEUE_SEND);
  if (kind === 'worker' && consumes) add(declared.queues, consumes, QUEUE_CONSUME);
  const capabilities = declared.capabilities;
  if (resources.realtimePublish) capabilities.push('iot:Publish');
  // The live routes alone attach the realtime policy: the area's API, never its workers, jobs or hooks.
  if (resources.realtimePolicy && kind === 'api') {
    capabilities.push('iot:AttachPolicy', 'iot:DetachPolicy', 'cognito-identity:GetId');
  }
  if (resources.identityAdmin) capabilities.push('cognito-idp:*');
  else if (resources.identityGroups) capabilities.push('cognito-idp:ListUsersInGroup');
  if (resources.email) capabilities.push('ses:SendEmail');
  if ((resources.billing || resources.billingWebhook) && kind === 'api') {
    capabilities.push('secretsmanager:GetSecretValue');
  }
  // Sealing and opening webhooks' secrets with the one key: every function of the area signs or seals.
  if (resources.webhookSecrets) capabilities.push('kms:Encrypt', 'kms:Decrypt');
  return declared;
};

/** The tables, buckets and queues of the definitions that a statement's resources name. */
const namedIn = (statement: Statement, envName: CloudEnvName) => {
  const text = JSON.stringify(statement.Resource);
  const byId = (id: string) => new RegExp(`(FnGetAtt|Ref|")${id}${HASH}`).test(text);
  return {
    tables: (Object.keys(TABLES) as TableKey[]).filter((key) => byId(TABLES[key].constructId)),
    buckets: (Object.keys(BUCKETS) as BucketKey[]).filter((key) =>
      new RegExp(`:::${BUCKETS[key].name(envName)}(/|")`).test(text),
    ),
    queues: (Object.keys(QUEUES) as QueueKey[]).filter((key) => byId(QUEUES[key].constructId)),
  };
};

/** Services an area's function may be granted at all; the grant of each is checked against its declaration. */
const CAPABILITY_SERVICES = ['iot', 'cognito-identity', 'cognito-idp', 'ses', 'secretsmanager', 'kms'];
/** Each function's own log group and trace segments; a deploy hook's provider may invoke its hook. */
const HOUSEKEEPING = /^(logs:CreateLogStream|logs:PutLogEvents|xray:PutTraceSegments|xray:PutTelemetryRecords)$/;

/** Grants of one role beyond its declaration: each names the action and the resource it was not declared for. */
const undeclaredGrants = (
  role: RoleGrants,
  declared: Declared,
  envName: CloudEnvName,
  { capabilities = true }: { capabilities?: boolean } = {},
): string[] =>
  role.statements
    .filter((s) => s.Effect !== 'Deny')
    .flatMap((statement) => {
      const named = namedIn(statement, envName);
      const onData = named.tables.length + named.buckets.length + named.queues.length > 0;
      return actionsOf(statement).flatMap((action) => {
        const problems: string[] = [];
        for (const table of named.tables) {
          if (!declared.tables[table]?.includes(action)) problems.push(`${action} on table ${table}`);
        }
        for (const bucket of named.buckets) {
          if (!declared.buckets[bucket]?.includes(action)) problems.push(`${action} on bucket ${bucket}`);
        }
        for (const queue of named.queues) {
          if (!declared.queues[queue]?.includes(action)) problems.push(`${action} on queue ${queue}`);
        }
        const service = action.split(':')[0]!;
        if (capabilities && !onData && CAPABILITY_SERVICES.includes(service)) {
          const allowed = declared.capabilities.some(
            (c) => c === action || (c.endsWith(':*') && action.startsWith(c.slice(0, -1))),
          );
          if (!allowed) problems.push(`${action} (not declared)`);
        }
        return problems.map((p) => `${role.stack}/${role.role}: ${p}`);
      });
    });

/** The area, kind and consumed queue of a role in an area's nested stack, from its logical id. */
const roleInArea = (area: AreaName, role: string): { kind: RoleKind; consumes?: QueueKey } => {
  const is = (prefix: string) => new RegExp(`^${prefix}Role${HASH}$`).test(role);
  if (is(`${constructId(area)}ApiHandler`)) return { kind: 'api' };
  const worker = WORKERS.find((w) => w.area === area && is(w.name));
  if (worker) return { kind: 'worker', consumes: worker.queue };
  if (SCHEDULED_JOBS.some((j) => j.area === area && is(j.name))) return { kind: 'job' };
  if (DEPLOY_HOOKS.some((h) => h.area === area && is(h.name))) return { kind: 'hook' };
  if (IOT_RULES.some((r) => r.area === area && is(r.name))) return { kind: 'rule' };
  if (IOT_AUTHORIZERS.some((a) => a.area === area && is(a.name))) return { kind: 'authorizer' };
  return { kind: 'other' };
};

/** Each grant the allow-lists judge: a statement on `Resource: "*"`, a wildcard action, a managed policy. */
const judged = (roles: RoleGrants[]) => {
  const allowed = roles.flatMap((role) =>
    role.statements.filter((s) => s.Effect !== 'Deny').map((statement) => ({ role, statement })),
  );
  return {
    anyResource: allowed
      .filter(({ statement }) => resourcesOf(statement).includes('*'))
      .flatMap(({ role, statement }) =>
        actionsOf(statement).map((action) => ({
          grant: `${role.stack}/${role.role}: ${action} on *`,
          entry: matching(ANY_RESOURCE_ALLOWED, role.role, action),
        })),
      ),
    patterns: allowed.flatMap(({ role, statement }) =>
      actionsOf(statement)
        .filter((action) => action.includes('*'))
        .map((action) => ({
          grant: `${role.stack}/${role.role}: ${action}`,
          // `*` and `service:*` are never on the list, whatever it says.
          entry:
            action === '*' || action.endsWith(':*') ? undefined : matching(ACTION_PATTERNS_ALLOWED, role.role, action),
        })),
    ),
    managed: roles.flatMap((role) =>
      role.managed.map((policy) => ({
        grant: `${role.stack}/${role.role}: ${policy}`,
        entry: matching(MANAGED_POLICIES_ALLOWED, role.role, policy),
      })),
    ),
  };
};

const unlisted = (grants: { grant: string; entry?: AllowEntry }[]) =>
  grants.filter((g) => !g.entry).map((g) => g.grant);

describe.each(['prod', 'dev'] as CloudEnvName[])('least privilege on %s', (envName) => {
  const templates = synthesizedTemplates(envName);
  const all = Object.entries(templates) as [string, Template][];
  const roles = all.flatMap(([stack, template]) => [...rolesOf(stack, template), ...foreignPolicies(stack, template)]);
  const grants = judged(roles);

  it('walks the roles of every stack, the nested area stacks included', () => {
    const stacks = new Set(roles.map((r) => r.stack));
    for (const [key, template] of all) {
      if (Object.keys(resourcesOfType(template, 'AWS::IAM::Role')).length > 0) expect(stacks).toContain(key);
    }
    expect([...stacks].filter((s) => s.startsWith('api/')).length).toBeGreaterThan(10);
  });

  it('grants nothing on Resource "*" but the reviewed exceptions', () => {
    expect(grants.anyResource.length).toBeGreaterThan(0);
    expect(unlisted(grants.anyResource)).toEqual([]);
  });

  it('names every action: never "*" or "service:*", and prefix patterns only in the reviewed CDK handlers', () => {
    expect(unlisted(grants.patterns)).toEqual([]);
  });

  it('attaches no managed policy but the reviewed ones', () => {
    expect(unlisted(grants.managed)).toEqual([]);
  });

  if (envName === 'prod') {
    it('uses every allow-list entry, so none outlives its reason', () => {
      const used = new Set([...grants.anyResource, ...grants.patterns, ...grants.managed].map((g) => g.entry));
      const unused = [...ANY_RESOURCE_ALLOWED, ...ACTION_PATTERNS_ALLOWED, ...MANAGED_POLICIES_ALLOWED].filter(
        (entry) => !used.has(entry),
      );
      expect(unused.map((entry) => `${entry.role}: ${entry.actions.join(', ')}`)).toEqual([]);
    });
  }

  it.each(AREA_NAMES)('grants the %s area only the tables, buckets and queues it declares, at its level', (area) => {
    const template = templates[`api/${area}`];
    if (!template) return;
    const areaRoles = roles.filter((r) => r.stack === `api/${area}`);
    expect(areaRoles.length).toBeGreaterThan(0);
    const offending = areaRoles.flatMap((role) => {
      const { kind, consumes } = roleInArea(area, role.role);
      return undeclaredGrants(role, declaredFor(area, kind, consumes), envName);
    });
    expect(offending).toEqual([]);
  });

  it('the sensor-data worker cannot attach IoT policies; only its API, whose live routes do', () => {
    const sensorData = roles.filter((r) => r.stack === 'api/sensor-data');
    const attaching = sensorData
      .filter((r) => r.statements.some((s) => actionsOf(s).some((a) => /^iot:(Attach|Detach)Policy$/.test(a))))
      .map((r) => r.role);
    expect(attaching).toHaveLength(1);
    expect(attaching[0]).toMatch(new RegExp(`^SensorDataApiHandlerRole${HASH}$`));
  });

  it("data ingress updates a device credential's lastUsed and no other attribute of it; no other area writes it", () => {
    const onCredentials = roles.flatMap((r) =>
      r.statements
        .filter((s) => namedIn(s, envName).tables.includes('deviceCredentials'))
        .filter((s) => actionsOf(s).some((a) => /^dynamodb:(UpdateItem|PutItem|DeleteItem|BatchWriteItem)$/.test(a)))
        .map((s) => ({ stack: r.stack, actions: actionsOf(s), condition: s.Condition })),
    );
    const ingress = onCredentials.filter((g) => g.stack === 'api/data-ingress');
    expect(ingress.length).toBeGreaterThan(0);
    for (const grant of ingress) {
      expect(grant).toEqual({
        stack: 'api/data-ingress',
        actions: ['dynamodb:UpdateItem'],
        condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['credentialId', 'lastUsed'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
        },
      });
    }
    expect([...new Set(onCredentials.map((g) => g.stack))].sort()).toEqual(['api/data-ingress', 'api/devices']);
  });

  it('the api area only reads the buckets it signs GETs for: no put, delete or listing', () => {
    const api = roles.filter((r) => r.stack === 'api/api');
    const onBuckets = api.flatMap((r) =>
      r.statements
        .filter((s) => namedIn(s, envName).buckets.length > 0)
        .flatMap((s) => namedIn(s, envName).buckets.flatMap((b) => actionsOf(s).map((a) => `${b}:${a}`))),
    );
    expect(onBuckets.length).toBeGreaterThan(0);
    expect(onBuckets.filter((grant) => !/:s3:GetObject(Version)?$/.test(grant))).toEqual([]);
  });

  it('the identity triggers touch only the tables and pool actions COGNITO_TRIGGERS lists; no other role outside the areas any data', () => {
    const offending = roles
      .filter((r) => !r.stack.startsWith('api/'))
      .flatMap((role) => {
        const trigger = COGNITO_TRIGGERS.find((t) => new RegExp(`^${t.name}Role${HASH}$`).test(role.role));
        const declared: Declared = {
          tables: {},
          buckets: {},
          queues: {},
          capabilities: [...(trigger?.userPoolActions ?? [])],
        };
        for (const table of trigger?.tables ?? []) add(declared.tables, table, [...TABLE_READ, ...TABLE_WRITE]);
        // CDK's handlers and the identity pool's role have their own reviewed grants (above); for them only data
        // counts. A trigger's other services' actions are held to its declaration.
        return undeclaredGrants(role, declared, envName, { capabilities: Boolean(trigger) });
      });
    expect(offending).toEqual([]);
  });

  it("lets an area's functions take no action outside data, their logs and traces, and declared services", () => {
    const known = /^(dynamodb|s3|sqs|logs|xray|iot|cognito-identity|cognito-idp|ses|secretsmanager|kms):/;
    const offending = roles
      .filter((r) => r.stack.startsWith('api/'))
      .flatMap((role) =>
        role.statements
          .flatMap(actionsOf)
          .filter((action) => !known.test(action) && !HOUSEKEEPING.test(action))
          // A deploy hook's provider framework invokes the hook's function (and waits for it to be ready), nothing else.
          .filter(
            (action) =>
              !(/^lambda:(InvokeFunction|GetFunction)$/.test(action) && /ProviderframeworkonEvent/.test(role.role)),
          )
          .map((action) => `${role.stack}/${role.role}: ${action}`),
      );
    expect(offending).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const statement = (Action: string[], Resource: unknown): Statement => ({ Effect: 'Allow', Action, Resource });
  const bucketArn = (key: BucketKey) => ({ 'Fn::Join': ['', [`arn:aws:s3:::${BUCKETS[key].name('prod')}/*`]] });
  const role = (statements: Statement[]): RoleGrants => ({ stack: 'api/x', role: 'XRole', statements, managed: [] });

  it('flag a put in a bucket the area only reads, and a table or queue it does not name', () => {
    const api = declaredFor('api', 'api');
    expect(undeclaredGrants(role([statement(['s3:GetObject'], bucketArn('exports'))]), api, 'prod')).toEqual([]);
    expect(undeclaredGrants(role([statement(['s3:PutObject'], bucketArn('exports'))]), api, 'prod')).toHaveLength(1);
    const table = {
      'Fn::GetStackOutput': { OutputName: `PublishOutputFnGetAtt${TABLES.rollups.constructId}ABCDEF12Arn` },
    };
    expect(undeclaredGrants(role([statement(['dynamodb:GetItem'], table)]), api, 'prod')).toHaveLength(1);
    const queue = {
      'Fn::GetStackOutput': { OutputName: `PublishOutputFnGetAtt${QUEUES.jobs.constructId}ABCDEF12Arn` },
    };
    expect(undeclaredGrants(role([statement(['sqs:SendMessage'], queue)]), api, 'prod')).toHaveLength(1);
  });

  it('flag the realtime policy on a worker, and let its API have it', () => {
    const attach = [statement(['iot:AttachPolicy'], '*')];
    expect(undeclaredGrants(role(attach), declaredFor('sensor-data', 'worker', 'sensorData'), 'prod')).toHaveLength(1);
    expect(undeclaredGrants(role(attach), declaredFor('sensor-data', 'api'), 'prod')).toEqual([]);
  });
});
