import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { CloudEnvName } from '../../infra/app';
import { ALARM_THRESHOLDS, APP_METRIC_SOURCES, LOG_METRICS, metricNamespace } from '../../infra/definitions/alarms';
import { environmentSettings } from '../../infra/definitions/environments';
import { STRIPE_WEBHOOK_SECRET } from '../../infra/definitions/storage';
import type { AreaName } from '../../shared/contracts/areas';
import { LOG_EVENTS } from '../../shared/operations/log-events';
import { APP_METRICS } from '../../shared/operations/metrics';
import { areaTemplateKey, resourcesOfType, synthesize, type Templates } from './synth';

type Resource = { Type: string; Properties: Record<string, unknown> };

/** One metric an alarm reads, whether the alarm names it directly or through a math expression. */
interface AlarmMetric {
  namespace: string;
  metricName: string;
  stat?: string;
  dimensions: Record<string, unknown>;
}

const dimensionsOf = (list: unknown): Record<string, unknown> =>
  Object.fromEntries(((list as { Name: string; Value: unknown }[] | undefined) ?? []).map((d) => [d.Name, d.Value]));

const metricsOf = (alarm: Resource): AlarmMetric[] => {
  const p = alarm.Properties;
  if (p.MetricName) {
    return [
      {
        namespace: p.Namespace as string,
        metricName: p.MetricName as string,
        stat: (p.ExtendedStatistic ?? p.Statistic) as string,
        dimensions: dimensionsOf(p.Dimensions),
      },
    ];
  }
  type MetricStat = { Stat: string; Metric: { Namespace: string; MetricName: string; Dimensions?: unknown } };
  return ((p.Metrics as { MetricStat?: MetricStat }[] | undefined) ?? []).flatMap(({ MetricStat: stat }) =>
    stat
      ? [
          {
            namespace: stat.Metric.Namespace,
            metricName: stat.Metric.MetricName,
            stat: stat.Stat,
            dimensions: dimensionsOf(stat.Metric.Dimensions),
          },
        ]
      : [],
  );
};

/** A value as it sits in the template of the stack that owns it: `{ key, value }` after following stack outputs. */
interface Located {
  key: string;
  value: unknown;
}

describe.each(['prod', 'dev'] as CloudEnvName[])('operations of %s', (envName) => {
  const { stacks, templates } = synthesize(envName);
  const settings = environmentSettings(envName);
  const ops = templates.operations;
  const entries = Object.entries(templates) as [string, Template][];
  const alarms = Object.values(resourcesOfType(ops, 'AWS::CloudWatch::Alarm')) as Resource[];
  const [topicId] = Object.keys(resourcesOfType(ops, 'AWS::SNS::Topic'));

  // Which template a stack name or a nested stack's resource stands for, to follow a reference to its source.
  const keyOfStackName = new Map(
    Object.entries(stacks).map(([key, stack]) => [(stack as Stack).stackName, key] as const),
  );
  const keyOfNestedResource = new Map(
    Object.entries(stacks.api.areaStacks).map(([area, nested]) => {
      const resource = nested.nestedStackResource!;
      return [Stack.of(resource).getLogicalId(resource as never), areaTemplateKey(area as AreaName)] as const;
    }),
  );
  const outputOf = (key: string, name: string): unknown =>
    (templates[key as keyof Templates]!.toJSON().Outputs as Record<string, { Value: unknown }>)[name]!.Value;

  /** Follows Fn::GetStackOutput (and a nested stack's outputs) to the value in the template that owns it. */
  const locate = (value: unknown, key = 'operations'): Located => {
    const v = value as Record<string, unknown> | null;
    const output =
      v && typeof v === 'object'
        ? (v['Fn::GetStackOutput'] as { StackName: string; OutputName: string } | undefined)
        : undefined;
    if (output) {
      const { StackName, OutputName } = output;
      const producer = keyOfStackName.get(StackName)!;
      return locate(outputOf(producer, OutputName), producer);
    }
    const getAtt = v && typeof v === 'object' ? (v['Fn::GetAtt'] as string[] | undefined) : undefined;
    if (Array.isArray(getAtt) && String(getAtt[1]).startsWith('Outputs.') && keyOfNestedResource.has(getAtt[0]!)) {
      const nested = keyOfNestedResource.get(getAtt[0]!)!;
      return locate(outputOf(nested, String(getAtt[1]).slice('Outputs.'.length)), nested);
    }
    return { key, value };
  };
  const refersTo = (value: unknown, key: string, logicalId: string, attribute?: string): boolean => {
    const found = locate(value);
    const expected = attribute ? { 'Fn::GetAtt': [logicalId, attribute] } : { Ref: logicalId };
    return found.key === key && JSON.stringify(found.value) === JSON.stringify(expected);
  };
  const alarmsOn = (namespace: string, metricName: string, matches: (d: Record<string, unknown>) => boolean) =>
    alarms.filter((a) =>
      metricsOf(a).some((m) => m.namespace === namespace && m.metricName === metricName && matches(m.dimensions)),
    );
  const all = (type: string) =>
    entries.flatMap(([key, template]) =>
      Object.entries(resourcesOfType(template, type)).map(([id, resource]) => ({ key, id, resource })),
    );

  it('has an encrypted, TLS-only alarm topic that e-mails the environment’s alarm address', () => {
    expect(settings.alarmEmail).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    const topic = resourcesOfType(ops, 'AWS::SNS::Topic')[topicId!]!;
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    expect(Object.values(resourcesOfType(ops, 'AWS::SNS::Subscription'))).toContainEqual(
      expect.objectContaining({
        Properties: { Protocol: 'email', Endpoint: settings.alarmEmail, TopicArn: { Ref: topicId } },
      }),
    );
    const statements = Object.values(resourcesOfType(ops, 'AWS::SNS::TopicPolicy')).flatMap(
      (p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // Without these CloudWatch cannot publish to an encrypted topic, and alarms fire without a word.
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sns:Publish',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
      }),
    );
    const [keyId] = Object.keys(resourcesOfType(ops, 'AWS::KMS::Key'));
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    const key = resourcesOfType(ops, 'AWS::KMS::Key')[keyId!]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect((key.Properties.KeyPolicy as { Statement: unknown[] }).Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Action: expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']),
      }),
    );
  });

  it('sends every alarm, and its all-clear, to the topic', () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect([alarm.Properties.AlarmName, alarm.Properties.AlarmActions]).toEqual([
        alarm.Properties.AlarmName,
        [{ Ref: topicId }],
      ]);
      expect([alarm.Properties.AlarmName, alarm.Properties.OKActions]).toEqual([
        alarm.Properties.AlarmName,
        [{ Ref: topicId }],
      ]);
    }
  });

  const restApis = all('AWS::ApiGateway::RestApi');
  it('finds the APIs it watches', () => expect(restApis.length).toBeGreaterThan(0));

  it.each(restApis.map((api) => [api.resource.Properties.Name as string, api] as const))(
    'alarms on the 5xx rate and p99 latency of %s',
    (apiName, api) => {
      const stages = Object.values(resourcesOfType(templates[api.key as keyof Templates]!, 'AWS::ApiGateway::Stage'));
      const stageName = stages.find((s) => JSON.stringify(s.Properties.RestApiId) === JSON.stringify({ Ref: api.id }))!
        .Properties.StageName;
      const onThisApi = (d: Record<string, unknown>) => d.ApiName === apiName && d.Stage === stageName;
      const errors = alarmsOn('AWS/ApiGateway', '5XXError', onThisApi);
      // The average of API Gateway's 0/1 5XXError is the share of requests answered 5xx: a rate, below 1.
      expect(errors.flatMap(metricsOf).map((m) => m.stat)).toContain('Average');
      expect(errors.some((a) => (a.Properties.Threshold as number) < 1)).toBe(true);
      const latency = alarmsOn('AWS/ApiGateway', 'Latency', onThisApi);
      expect(latency.flatMap(metricsOf).map((m) => m.stat)).toContain('p99');
    },
  );

  // Functions that serve a CloudFormation custom resource (CDK's deployment handlers) run only inside `cdk deploy`,
  // where a failure fails the deploy in front of the operator; every other function is the application's.
  const functions = all('AWS::Lambda::Function').filter(({ key, id }) => {
    const template = templates[key as keyof Templates]!.toJSON().Resources as Record<string, Resource>;
    return !Object.values(template).some(
      (r) => r.Properties?.ServiceToken && JSON.stringify(r.Properties.ServiceToken).includes(`"${id}"`),
    );
  });
  it('finds the functions it watches, in the areas and the identity triggers', () => {
    expect(functions.some(({ key }) => key.startsWith('api/'))).toBe(true);
    expect(functions.some(({ key }) => key === 'auth')).toBe(true);
  });

  it(`traces every function's SDK calls exactly where the environment says (${envName}: traceSdkCalls)`, () => {
    const tracing = functions.map(({ key, id, resource }) => {
      const properties = (resource as Resource).Properties as {
        TracingConfig?: { Mode: string };
        Environment?: { Variables?: Record<string, unknown> };
      };
      return [
        `${key} ${id}`,
        properties.TracingConfig?.Mode,
        properties.Environment?.Variables?.POWERTOOLS_TRACE_ENABLED,
      ];
    });
    // Active X-Ray tracing everywhere (a segment per invocation); the Tracer's subsegments where the setting is on.
    expect(
      tracing.filter(([, mode, traced]) => mode !== 'Active' || traced !== String(settings.traceSdkCalls)),
    ).toEqual([]);
  });

  it.each(functions.map((fn) => [`${fn.key} ${fn.id}`, fn] as const))(
    'alarms on the errors and throttles of %s',
    (_name, fn) => {
      const onThisFunction = (d: Record<string, unknown>) => refersTo(d.FunctionName, fn.key, fn.id);
      expect(alarmsOn('AWS/Lambda', 'Errors', onThisFunction)).toHaveLength(1);
      expect(alarmsOn('AWS/Lambda', 'Throttles', onThisFunction)).toHaveLength(1);
    },
  );

  it('leaves the sign-ups the PreSignUp trigger refused on purpose out of its errors alarm, and nothing else', () => {
    const [preSignUp] = functions.filter(({ key, id }) => key === 'auth' && id.startsWith('UsersPreSignUp'));
    expect(preSignUp).toBeDefined();
    const [errorsAlarm] = alarmsOn('AWS/Lambda', 'Errors', (d) =>
      refersTo(d.FunctionName, preSignUp!.key, preSignUp!.id),
    );
    expect(metricsOf(errorsAlarm!).map((m) => [m.namespace, m.metricName, m.dimensions.service])).toContainEqual([
      metricNamespace(envName),
      'SignUpsRefused',
      'users',
    ]);
    expect(JSON.stringify(errorsAlarm!.Properties.Metrics)).toContain('errors - FILL(refused, 0)');
    // Every other function's errors alarm is Lambda's Errors as it is.
    expect(alarms.filter((a) => metricsOf(a).some((m) => m.metricName === 'SignUpsRefused'))).toHaveLength(1);
  });

  const queues = all('AWS::SQS::Queue');
  // A dead-letter queue by its name, or by its use: another queue's redrive target, a function's failure destination,
  // or where an EventBridge rule puts the events it could not deliver.
  const isDeadLetterQueue = ({ key, id, resource }: (typeof queues)[number]) => {
    if (/-dlq(\.fifo)?$/.test(String(resource.Properties.QueueName ?? ''))) return true;
    const template = templates[key as keyof Templates]!;
    const targetOf = JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] });
    return [
      ...Object.values(resourcesOfType(template, 'AWS::SQS::Queue')).map((q) => q.Properties.RedrivePolicy),
      ...Object.values(resourcesOfType(template, 'AWS::Lambda::EventInvokeConfig')).map(
        (c) => (c.Properties.DestinationConfig as { OnFailure?: unknown } | undefined)?.OnFailure,
      ),
      ...Object.values(resourcesOfType(template, 'AWS::Events::Rule')).flatMap((r) =>
        ((r.Properties.Targets ?? []) as { DeadLetterConfig?: unknown }[]).map((t) => t.DeadLetterConfig),
      ),
    ].some((use) => JSON.stringify(use ?? {}).includes(targetOf));
  };
  const onQueue =
    ({ key, id, resource }: (typeof queues)[number]) =>
    (d: Record<string, unknown>) =>
      resource.Properties.QueueName !== undefined
        ? d.QueueName === resource.Properties.QueueName
        : refersTo(d.QueueName, key, id, 'QueueName');

  it('finds dead-letter queues by name and by use', () => {
    expect(queues.filter(isDeadLetterQueue).some((q) => q.resource.Properties.QueueName === undefined)).toBe(true);
    expect(queues.filter(isDeadLetterQueue).some((q) => q.resource.Properties.QueueName !== undefined)).toBe(true);
  });

  it.each(queues.filter(isDeadLetterQueue).map((q) => [`${q.key} ${q.id}`, q] as const))(
    'alarms as soon as one message waits in the dead-letter queue %s',
    (_name, queue) => {
      const depth = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', onQueue(queue));
      expect(depth).toHaveLength(1);
      const { Threshold, ComparisonOperator } = depth[0]!.Properties;
      const firesOnOne =
        (ComparisonOperator === 'GreaterThanOrEqualToThreshold' && (Threshold as number) <= 1) ||
        (ComparisonOperator === 'GreaterThanThreshold' && (Threshold as number) < 1);
      expect(firesOnOne).toBe(true);
    },
  );

  it.each(queues.map((q) => [`${q.key} ${q.id}`, q] as const))(
    'alarms on the age of the oldest message of %s, before SQS drops it',
    (_name, queue) => {
      const age = alarmsOn('AWS/SQS', 'ApproximateAgeOfOldestMessage', onQueue(queue));
      expect(age).toHaveLength(1);
      const retention = (queue.resource.Properties.MessageRetentionPeriod as number | undefined) ?? 4 * 86_400;
      expect(age[0]!.Properties.Threshold as number).toBeLessThan(retention);
    },
  );

  const tables = all('AWS::DynamoDB::Table');
  it.each(tables.map((t) => [t.resource.Properties.TableName as string] as const))(
    'alarms on throttled reads and writes of the table %s',
    (tableName) => {
      const onTable = (d: Record<string, unknown>) => d.TableName === tableName;
      const reads = alarmsOn('AWS/DynamoDB', 'ReadThrottleEvents', onTable);
      const writes = alarmsOn('AWS/DynamoDB', 'WriteThrottleEvents', onTable);
      expect(reads).toHaveLength(1);
      expect(writes).toEqual(reads);
    },
  );

  const rules = all('AWS::IoT::TopicRule');
  it('finds the IoT rules it watches', () => expect(rules.length).toBeGreaterThan(0));

  it.each(rules.map((r) => [r.resource.Properties.RuleName as string, r] as const))(
    'counts the failed actions of the IoT rule %s from its error log, and alarms on them and on throttling',
    (ruleName, rule) => {
      const payload = rule.resource.Properties.TopicRulePayload as {
        ErrorAction: { CloudwatchLogs: Record<string, unknown> };
      };
      const errorLog = payload.ErrorAction.CloudwatchLogs.LogGroupName;
      const filters = Object.values(
        resourcesOfType(templates[rule.key as keyof Templates]!, 'AWS::Logs::MetricFilter'),
      );
      const filter = filters.find((f) => JSON.stringify(f.Properties.LogGroupName) === JSON.stringify(errorLog));
      expect(filter?.Properties.MetricTransformations).toEqual([
        expect.objectContaining({
          MetricName: LOG_METRICS.iotRuleActionFailed,
          MetricNamespace: metricNamespace(envName),
          Dimensions: [{ Key: 'RuleName', Value: '$.ruleName' }],
        }),
      ]);
      const onRule = (d: Record<string, unknown>) => d.RuleName === ruleName;
      const failed = alarmsOn(metricNamespace(envName), LOG_METRICS.iotRuleActionFailed, onRule);
      expect(failed).toHaveLength(1);
      expect(alarmsOn('AWS/IoT', 'RuleMessageThrottled', onRule)).toEqual(failed);
    },
  );

  it('alarms on SES bounces and complaints', () => {
    expect(alarmsOn('AWS/SES', 'Reputation.BounceRate', () => true)).toHaveLength(1);
    expect(alarmsOn('AWS/SES', 'Reputation.ComplaintRate', () => true)).toHaveLength(1);
  });

  it('counts refused Stripe webhook signatures in the log of the function that checks them, and alarms on them', () => {
    const webhookFunctions = all('AWS::Lambda::Function').filter(({ resource }) =>
      JSON.stringify(resource.Properties.Environment ?? {}).includes(STRIPE_WEBHOOK_SECRET.envVar),
    );
    expect(webhookFunctions.length).toBeGreaterThan(0);
    for (const fn of webhookFunctions) {
      const logGroup = (fn.resource.Properties.LoggingConfig as { LogGroup: unknown }).LogGroup;
      const filters = Object.values(resourcesOfType(templates[fn.key as keyof Templates]!, 'AWS::Logs::MetricFilter'));
      const filter = filters.find((f) => JSON.stringify(f.Properties.LogGroupName) === JSON.stringify(logGroup));
      expect(filter?.Properties.FilterPattern).toBe(`{ $.event = "${LOG_EVENTS.stripeWebhookRefused}" }`);
      expect(filter?.Properties.MetricTransformations).toEqual([
        expect.objectContaining({
          MetricName: LOG_METRICS.stripeWebhookRefused,
          MetricNamespace: metricNamespace(envName),
        }),
      ]);
    }
    const refusals = alarmsOn(metricNamespace(envName), LOG_METRICS.stripeWebhookRefused, () => true);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.Properties.Threshold).toBe(ALARM_THRESHOLDS.stripeWebhookRefusals.threshold);
  });

  it('has one dashboard that shows every API and every table', () => {
    const dashboards = Object.values(resourcesOfType(ops, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties.DashboardName).toBe(`device-data-${envName}`);
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const api of restApis) expect(body).toContain(`\\"ApiName\\",\\"${api.resource.Properties.Name}\\"`);
    for (const table of tables) expect(body).toContain(`\\"${table.resource.Properties.TableName}\\"`);
  });

  it("shows every metric the functions count, in the environment's namespace and from the area that writes it", () => {
    const body = JSON.stringify(Object.values(resourcesOfType(ops, 'AWS::CloudWatch::Dashboard'))[0]!.Properties);
    for (const name of Object.values(APP_METRICS)) {
      expect(body).toContain(
        `[\\"${metricNamespace(envName)}\\",\\"${name}\\",\\"service\\",\\"${APP_METRIC_SOURCES[name]}\\"`,
      );
    }
  });
});
