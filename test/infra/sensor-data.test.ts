import type { Template } from 'aws-cdk-lib/assertions';
import { TABLES } from '../../functions/_shared/tables';
import { DATA_INGRESS_ENV } from '../../functions/data-ingress/deps';
import { SENSOR_DATA_ENV } from '../../functions/sensor-data/deps';
import { ENVIRONMENTS, environmentSettings } from '../../infra/definitions/environments';
import { IOT_AUTHORIZERS, IOT_RULES, SERVICE_RESOURCES, WORKERS } from '../../infra/definitions/services';
import { QUEUES, STRIPE_SECRET } from '../../infra/definitions/storage';
import { areasWithStacks } from '../../infra/stacks/api-stack';
import { iotRuleSql, WORKER_BATCH_SIZE } from '../../infra/stacks/area-stack';
import { DEVICE_TOPICS, devicePolicyName, REALTIME_POLICY_NAME } from '../../infra/stacks/realtime-stack';
import type { AreaName } from '../../shared/contracts/areas';
import { areaTemplate, liveAliasOf, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * The cloud wiring of sensor data (docs/sensor-data.md, "Cloud wiring"): the queue worker, the IoT rule for MQTT
 * ingest, and who may publish to IoT Core or hand out its realtime policy.
 */
const ENV = 'prod';
const templates = synthesizedTemplates(ENV);

type Resource = { Properties: Record<string, unknown>; [key: string]: unknown };
type Statement = { Effect?: string; Action: unknown; Resource: unknown; Condition?: unknown };

const functionDescribed = (template: Template, description: string): [string, Resource] => {
  const found = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(([, f]) =>
    String(f.Properties.Description).includes(description),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

const statementsOf = (template: Template, fn: Resource): Statement[] => {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => mentions(p.Properties.Roles, roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
};

const actionsOf = (statement: Statement) => [statement.Action].flat().map(String);
const withAction = (statements: Statement[], action: string) => statements.filter((s) => actionsOf(s).includes(action));

/** The devices' MQTT authorizer: in an area's stack, with a key read of the credentials and nothing of the area's. */
const isAuthorizer = (fn: Resource) =>
  IOT_AUTHORIZERS.some((a) => String(fn.Properties.Description).includes(`the ${a.name} IoT custom authorizer`));

const variablesOf = (fn: Resource) =>
  (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

/** Every Lambda of every area's nested stack, with its area and template. */
const areaFunctions = areasWithStacks().flatMap((area) => {
  const template = areaTemplate(templates, area);
  return Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).map(([id, fn]) => ({
    area,
    template,
    id,
    fn: fn as Resource,
  }));
});

/** The environment variables every function of the area gets from its SERVICE_RESOURCES. */
const areaVariables = (area: AreaName): string[] => {
  const resources = SERVICE_RESOURCES[area];
  return [
    ...[...resources.tables, ...(resources.readTables ?? [])].map((t) => TABLES[t].envVar),
    ...(resources.jobs ? [QUEUES.jobs.envVar] : []),
    ...(resources.queues ?? []).map((q) => QUEUES[q].envVar),
  ];
};

describe.each(WORKERS.map((w) => [w.name, w] as const))('the %s worker', (_name, worker) => {
  const template = areaTemplate(templates, worker.area);
  const [functionId, fn] = functionDescribed(template, `the ${worker.name} worker`);
  // The queue feeds the function's live alias (docs/decisions/032-edge-and-gradual-deploys.md).
  const aliasId = liveAliasOf(template, functionId);
  const queue = QUEUES[worker.queue];
  const mappings = Object.values(resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')).filter((m) =>
    mentions(m.Properties.FunctionName, aliasId),
  );

  it('consumes its queue in batches of ten (or its own size), reporting which messages failed (the others are not retried)', () => {
    expect(mappings).toHaveLength(1);
    const mapping = mappings[0]!;
    expect(mapping.Properties).toMatchObject({
      BatchSize: worker.batchSize ?? WORKER_BATCH_SIZE,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(WORKER_BATCH_SIZE).toBe(10);
    // The queue's ARN arrives from the messaging stack's output, named after the queue's construct.
    expect(mentions(mapping.Properties.EventSourceArn, queue.constructId)).toBe(true);
    expect(mentions(mapping.Properties.EventSourceArn, `${queue.constructId}DeadLetters`)).toBe(false);
  });

  it("finishes well inside its queue's visibility timeout (at least six times the function's timeout)", () => {
    const timeout = Number(fn.Properties.Timeout);
    const visibility = Object.values(resourcesOfType(templates.messaging, 'AWS::SQS::Queue')).find(
      (q) => q.Properties.QueueName === queue.name(ENV),
    )?.Properties.VisibilityTimeout;
    expect(timeout).toBeGreaterThanOrEqual(30);
    expect(Number(visibility)).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('may receive and delete messages of its own queue only', () => {
    const consume = withAction(statementsOf(template, fn), 'sqs:DeleteMessage');
    expect(consume).toHaveLength(1);
    expect(actionsOf(consume[0]!)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility']),
    );
    for (const resource of [consume[0]!.Resource].flat()) {
      expect(mentions(resource, queue.constructId)).toBe(true);
      expect(mentions(resource, 'DeadLetters')).toBe(false);
    }
  });

  it("runs with its area's grants and environment, but no session check, auth or Stripe key", () => {
    const variables = variablesOf(fn);
    expect(Object.keys(variables)).toEqual(expect.arrayContaining(areaVariables(worker.area)));
    expect(variables.AUTH_ISSUER).toBeUndefined();
    expect(variables[STRIPE_SECRET.envVar]).toBeUndefined();
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', TracingConfig: { Mode: 'Active' } });
  });
});

describe.each(IOT_RULES.map((r) => [r.name, r] as const))('the %s IoT rule', (_name, rule) => {
  const template = areaTemplate(templates, rule.area);
  const [functionId, fn] = functionDescribed(template, `the ${rule.name} IoT rule`);
  // The rule invokes the function's live alias (docs/decisions/032-edge-and-gradual-deploys.md).
  const aliasId = liveAliasOf(template, functionId);
  const rules = Object.entries(resourcesOfType(template, 'AWS::IoT::TopicRule'));
  const [ruleId, topicRule] = rules.find(([, r]) => mentions(r.Properties.TopicRulePayload, aliasId))!;
  const payload = topicRule.Properties.TopicRulePayload as Record<string, unknown>;

  it('selects every message of its topic filter, with the topic, into its function only', () => {
    expect(payload.Sql).toBe(`SELECT *, topic() AS topic, principal() AS principal FROM '${rule.topicFilter}'`);
    expect(iotRuleSql(rule.topicFilter)).toBe(payload.Sql);
    expect(payload).toMatchObject({ AwsIotSqlVersion: '2016-03-23', RuleDisabled: false });
    expect(payload.Actions).toEqual([{ Lambda: { FunctionArn: { Ref: aliasId } } }]);
    // Rule names are account-wide: the environment keeps dev's and prod's apart.
    expect(topicRule.Properties.RuleName).toBe(`${rule.name}_${ENV}`);
  });

  it('logs the messages it could not deliver, through a role that may write that log group only', () => {
    const errorAction = (payload.ErrorAction as { CloudwatchLogs: { LogGroupName: unknown; RoleArn: unknown } })
      .CloudwatchLogs;
    const logGroupId = (errorAction.LogGroupName as { Ref: string }).Ref;
    expect(Object.keys(resourcesOfType(template, 'AWS::Logs::LogGroup'))).toContain(logGroupId);
    const roleId = (errorAction.RoleArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const role = resourcesOfType(template, 'AWS::IAM::Role')[roleId]!;
    expect(JSON.stringify(role.Properties.AssumeRolePolicyDocument)).toContain('iot.amazonaws.com');
    const statements = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
      .filter((p) => mentions(p.Properties.Roles, roleId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::GetAtt': [logGroupId, 'Arn'] },
      },
    ]);
  });

  it('lets IoT Core invoke the function for this rule only', () => {
    const permissions = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter((p) =>
      mentions(p.Properties.FunctionName, aliasId),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    });
  });

  it("runs with its area's grants and environment", () => {
    expect(Object.keys(variablesOf(fn))).toEqual(expect.arrayContaining(areaVariables(rule.area)));
  });

  it('keeps an event that still fails after the asynchronous retries in an encrypted queue, never drops it', () => {
    const [config] = Object.values(resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig')).filter((c) =>
      mentions(c.Properties.FunctionName, functionId),
    );
    expect(config!.Properties).toMatchObject({ MaximumRetryAttempts: 2 });
    const destination = (config!.Properties.DestinationConfig as { OnFailure: { Destination: unknown } }).OnFailure
      .Destination as { 'Fn::GetAtt': [string, string] };
    const queue = resourcesOfType(template, 'AWS::SQS::Queue')[destination['Fn::GetAtt'][0]]!;
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  });

  it('listens to a device topic that the devices’ IoT policy lets a device publish under its own id', () => {
    expect(DEVICE_TOPICS.map((topic) => `devices/+/${topic}`)).toContain(rule.topicFilter);
  });
});

describe('the environment the sensor-data functions read', () => {
  // The handlers read these once at start and fail without them (readEnv); ENV_NAME names the live topics.
  const reads: Partial<Record<AreaName, string[]>> = {
    'data-ingress': Object.values(DATA_INGRESS_ENV),
    'sensor-data': Object.values(SENSOR_DATA_ENV),
  };

  it.each(Object.entries(reads))('is set on every %s function but its IoT authorizer', (area, names) => {
    const functions = areaFunctions.filter((f) => f.area === area && !isAuthorizer(f.fn));
    expect(functions.length).toBeGreaterThan(0);
    for (const { fn } of functions) expect(Object.keys(variablesOf(fn))).toEqual(expect.arrayContaining(names!));
  });

  it("tells every data-ingress function but its authorizer when roll-ups run: production's hourly setting", () => {
    const functions = areaFunctions.filter((f) => f.area === 'data-ingress' && !isAuthorizer(f.fn));
    expect(functions.length).toBeGreaterThan(1);
    for (const { fn } of functions) expect(variablesOf(fn).ROLLUP_COALESCING).toBe('hour');
    expect(ENVIRONMENTS.map((name) => [name, environmentSettings(name).rollupCoalescing])).toEqual(
      ENVIRONMENTS.map((name) => [name, name === 'local' ? 'none' : 'hour']),
    );
  });

  it('names the live topics (ENV_NAME) for the sensor-data API, whose live routes read it', () => {
    const [api] = areaFunctions.filter(
      (f) => f.area === 'sensor-data' && String(f.fn.Properties.Description).includes('the sensor-data API'),
    );
    expect(variablesOf(api!.fn).ENV_NAME).toBe(ENV);
  });
});

describe('publishing to IoT Core', () => {
  it('is allowed only to areas with realtimePublish, on the identity topics of the environment only', () => {
    const publishers = new Set<AreaName>();
    for (const { area, template, fn } of areaFunctions) {
      const publish = withAction(statementsOf(template, fn), 'iot:Publish');
      // An IoT authorizer gets none of its area's grants (test/infra/mqtt-authorizer.test.ts).
      if (!SERVICE_RESOURCES[area].realtimePublish || isAuthorizer(fn)) {
        expect(publish).toEqual([]);
        continue;
      }
      publishers.add(area);
      expect(publish).toHaveLength(1);
      expect(actionsOf(publish[0]!)).toEqual(['iot:Publish']);
      const resources = [publish[0]!.Resource].flat();
      expect(resources).toHaveLength(1);
      const resource = JSON.stringify(resources[0]);
      expect(resource).toMatch(new RegExp(`:topic/${ENV}/identities/\\*"`));
      expect(resource).not.toContain('devices/');
      // The SDK's IoT data-plane client reads the account's endpoint from here.
      const endpoint = variablesOf(fn).AWS_ENDPOINT_URL_IOT_DATA_PLANE;
      expect(JSON.stringify(endpoint)).toContain('https://');
      expect(mentions(endpoint, 'IotDataEndpoint')).toBe(true);
      expect(variablesOf(fn).ENV_NAME).toBe(ENV);
    }
    expect([...publishers]).toContain('data-ingress');
  });

  it("gives no function any other IoT action than publishing and the realtime policy's attachment", () => {
    for (const { template, fn } of areaFunctions) {
      const iot = statementsOf(template, fn)
        .flatMap(actionsOf)
        .filter((a) => a.startsWith('iot:'));
      for (const action of iot) expect(['iot:Publish', 'iot:AttachPolicy', 'iot:DetachPolicy']).toContain(action);
    }
  });
});

describe("handing out the realtime policy (the live view's subscriptions)", () => {
  const isApi = (area: AreaName, fn: Resource) => String(fn.Properties.Description).includes(`the ${area} API`);

  it('is allowed only to the API of areas with realtimePolicy, and GetId on the one identity pool', () => {
    const attachers = new Set<AreaName>();
    for (const { area, template, fn } of areaFunctions) {
      const statements = statementsOf(template, fn);
      const attach = statements.filter((s) => actionsOf(s).some((a) => /^iot:(Attach|Detach)/.test(a)));
      const getId = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('cognito-identity:')));
      // Only the live routes attach it: the area's workers, jobs and rules never get the grant.
      if (!SERVICE_RESOURCES[area].realtimePolicy || !isApi(area, fn)) {
        expect(attach).toEqual([]);
        expect(getId).toEqual([]);
        expect(variablesOf(fn).IDENTITY_POOL_ID).toBeUndefined();
        continue;
      }
      attachers.add(area);
      expect(attach).toHaveLength(1);
      expect(
        actionsOf(attach[0]!)
          .filter((a) => a.startsWith('iot:'))
          .sort(),
      ).toEqual(['iot:AttachPolicy', 'iot:DetachPolicy']);
      // The service authorization reference gives these actions no resource type for a Cognito-identity target
      // (cert and thinggroup only): a policy ARN would match no request (decision 026).
      expect(attach[0]!.Resource).toBe('*');

      expect(getId).toHaveLength(1);
      expect(actionsOf(getId[0]!)).toEqual(['cognito-identity:GetId']);
      expect([getId[0]!.Resource].flat()).toHaveLength(1);
      expect(mentions(getId[0]!.Resource, 'IdentityPool')).toBe(true);
      expect(mentions(variablesOf(fn).IDENTITY_POOL_ID, 'IdentityPool')).toBe(true);
      expect(variablesOf(fn).ENV_NAME).toBe(ENV);
    }
    expect([...attachers]).toEqual(['sensor-data']);
  });

  it('names the policy it attaches in code, the one the realtime stack creates', () => {
    const policies = Object.values(resourcesOfType(templates.realtime, 'AWS::IoT::Policy')).map(
      (p) => p.Properties.PolicyName,
    );
    expect(policies).toContain(REALTIME_POLICY_NAME);
  });
});

describe('the devices’ IoT policy', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the IoT policy variable, spelled as AWS reads it
  const THING = '${iot:Connection.Thing.ThingName}';
  const policies = Object.values(resourcesOfType(templates.realtime, 'AWS::IoT::Policy')).filter(
    (p) => p.Properties.PolicyName === devicePolicyName(ENV),
  );

  it('lets a device connect only as its own thing, with a certificate attached to that thing', () => {
    expect(policies).toHaveLength(1);
    const statements = (policies[0]!.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    const connect = withAction(statements, 'iot:Connect');
    expect(connect).toHaveLength(1);
    expect(JSON.stringify(connect[0]!.Resource)).toContain(`:client/${THING}"`);
    expect(connect[0]!.Condition).toEqual({ Bool: { 'iot:Connection.Thing.IsAttached': 'true' } });
  });

  it('lets a device publish only to its own readings, status and firmware report topics, and read nothing', () => {
    const statements = (policies[0]!.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    expect(statements.flatMap(actionsOf).sort()).toEqual(['iot:Connect', 'iot:Publish']);
    for (const statement of statements) expect(statement.Effect).toBe('Allow');
    const resources = withAction(statements, 'iot:Publish').flatMap((s) => [s.Resource].flat());
    expect(
      resources
        .map((r) =>
          JSON.stringify(r)
            .replace(/.*:topic\//, '')
            .replace(/"\]\]\}$/, ''),
        )
        .sort(),
    ).toEqual(['firmware-status', 'readings', 'status'].map((topic) => `devices/${THING}/${topic}`));
    expect(JSON.stringify(statements)).not.toMatch(/"\*"|\/\*/);
  });
});

describe("the account's IoT data endpoint", () => {
  it('is asked of IoT Core at deploy time (the ATS endpoint), by a role that may do nothing else', () => {
    const lookups = Object.values(resourcesOfType(templates.realtime, 'Custom::AWS'));
    expect(lookups).toHaveLength(1);
    const call = JSON.parse(String(lookups[0]!.Properties.Create));
    expect(call).toMatchObject({
      service: 'Iot',
      action: 'describeEndpoint',
      parameters: { endpointType: 'iot:Data-ATS' },
    });
    const statements = Object.entries(resourcesOfType(templates.realtime, 'AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('IotDataEndpoint'))
      .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    expect(statements.flatMap(actionsOf).sort()).toEqual([
      'iot:DescribeEndpoint',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
    ]);
    // No AWS-managed policy (the default custom-resource role carries the basic execution policy).
    for (const role of Object.values(resourcesOfType(templates.realtime, 'AWS::IAM::Role'))) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe("the campaign comparison (GET /campaigns/{id}/series, the sensor-data API's)", () => {
  const template = areaTemplate(templates, 'sensor-data');
  const [, fn] = functionDescribed(template, 'the sensor-data API');
  const actionsOn = (table: keyof typeof TABLES) =>
    statementsOf(template, fn)
      .filter((s) => [s.Resource].flat().some((r) => mentions(r, TABLES[table].constructId)))
      .flatMap(actionsOf);

  it.each(['campaigns', 'relations'] as const)(
    'reads the %s table (a campaign’s window, its devices) and may not change it',
    (table) => {
      const actions = actionsOn(table);
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query']));
      expect(actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action))).toEqual([]);
      expect(Object.keys(variablesOf(fn))).toContain(TABLES[table].envVar);
    },
  );
});
