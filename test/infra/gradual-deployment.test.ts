import type { CloudEnvName } from '../../infra/app';
import { ALARM_THRESHOLDS } from '../../infra/definitions/alarms';
import { environmentSettings } from '../../infra/definitions/environments';
import { DEPLOY_HOOKS } from '../../infra/definitions/services';
import { LIVE_ALIAS } from '../../infra/services/service-function';
import { mentions, resourcesOfType, synthesizedTemplates, type Templates } from './synth';

/** CodeDeploy's names of the predefined configurations, as the deployment group carries them. */
const CONFIG_NAMES = {
  CANARY_10PERCENT_5MINUTES: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
  LINEAR_10PERCENT_EVERY_1MINUTE: 'CodeDeployDefault.LambdaLinear10PercentEvery1Minute',
  ALL_AT_ONCE: 'CodeDeployDefault.LambdaAllAtOnce',
} as const;

type Resource = { Type: string; Properties: Record<string, unknown>; UpdatePolicy?: Record<string, unknown> };

describe.each(['prod', 'dev'] as CloudEnvName[])('gradual deployment in %s', (envName) => {
  const settings = environmentSettings(envName);
  const templates = synthesizedTemplates(envName);
  const withFunctions = (Object.entries(templates) as [keyof Templates, NonNullable<Templates['web']>][]).filter(
    ([key]) => String(key).startsWith('api/') || key === 'auth',
  );
  const all = (type: string) =>
    withFunctions.flatMap(([key, template]) =>
      Object.entries(resourcesOfType(template, type)).map(([id, resource]) => ({
        key,
        id,
        resource: resource as Resource,
        resources: template.toJSON().Resources as Record<string, Resource>,
      })),
    );
  // The project's functions: every function that is not a custom resource's service token (CDK's deploy handlers).
  const functions = all('AWS::Lambda::Function').filter(
    ({ id, resources }) =>
      !Object.values(resources).some(
        (r) => r.Properties?.ServiceToken && JSON.stringify(r.Properties.ServiceToken).includes(`"${id}"`),
      ) && !/Provider|AWS[0-9a-f]{32}|CustomResource/.test(id),
  );
  const aliases = all('AWS::Lambda::Alias');
  const aliasOf = (fn: (typeof functions)[number]) =>
    aliases.filter((a) => a.key === fn.key && mentions(a.resource.Properties.FunctionName, fn.id));
  const isHook = (id: string) => DEPLOY_HOOKS.some((h) => id.startsWith(h.name));

  it('finds the functions of the areas and the identity triggers', () => {
    expect(functions.some((f) => f.key === 'auth')).toBe(true);
    expect(functions.filter((f) => String(f.key).startsWith('api/')).length).toBeGreaterThan(10);
  });

  it.each(functions.map((fn) => [`${fn.key} ${fn.id}`, fn] as const))(
    '%s has a live alias on a published version',
    (_name, fn) => {
      const found = aliasOf(fn);
      expect(found).toHaveLength(1);
      const alias = found[0]!.resource.Properties;
      expect(alias.Name).toBe(LIVE_ALIAS);
      const version = (alias.FunctionVersion as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      expect(fn.resources[version[0]]?.Type).toBe('AWS::Lambda::Version');
    },
  );

  it.each(functions.filter((fn) => !isHook(fn.id)).map((fn) => [`${fn.key} ${fn.id}`, fn] as const))(
    "%s shifts its alias through CodeDeploy with the environment's strategy, rolled back on its error alarm",
    (_name, fn) => {
      const alias = aliasOf(fn)[0]!;
      const policy = alias.resource.UpdatePolicy?.CodeDeployLambdaAliasUpdate as { DeploymentGroupName: unknown };
      expect(policy).toBeDefined();
      const groupId = (policy.DeploymentGroupName as { Ref: string }).Ref;
      const group = fn.resources[groupId]!;
      expect(group.Type).toBe('AWS::CodeDeploy::DeploymentGroup');
      expect(group.Properties.DeploymentConfigName).toEqual(CONFIG_NAMES[settings.deployment]);
      expect(group.Properties.AutoRollbackConfiguration).toEqual({
        Enabled: true,
        Events: expect.arrayContaining([
          'DEPLOYMENT_FAILURE',
          'DEPLOYMENT_STOP_ON_ALARM',
          'DEPLOYMENT_STOP_ON_REQUEST',
        ]),
      });
      const alarmConfig = group.Properties.AlarmConfiguration as { Enabled: boolean; Alarms: { Name: unknown }[] };
      expect(alarmConfig.Enabled).toBe(true);
      const alarms = alarmConfig.Alarms.map((a) => fn.resources[(a.Name as { Ref: string }).Ref]!);
      // The function's errors through its alias (the Resource dimension names the alias), at the operations threshold;
      // for a function that refuses on purpose (PreSignUp), less the refusals it counted (function-errors.ts).
      type Stat = { Namespace: string; MetricName: string; Dimensions: unknown };
      const queries = (a: (typeof alarms)[number]) =>
        (a.Properties.Metrics ?? []) as { Id: string; Expression?: string; MetricStat?: { Metric: Stat } }[];
      const errors = alarms.find(
        (a) =>
          a.Properties.MetricName === 'Errors' || queries(a).some((q) => q.MetricStat?.Metric.MetricName === 'Errors'),
      );
      expect(errors?.Properties.Threshold).toBe(ALARM_THRESHOLDS.functionErrors.threshold);
      const lambdaErrors = (
        errors?.Properties.MetricName
          ? errors.Properties
          : queries(errors!).find((q) => q.MetricStat?.Metric.MetricName === 'Errors')!.MetricStat!.Metric
      ) as Stat;
      expect(lambdaErrors).toMatchObject({
        Namespace: 'AWS/Lambda',
        Dimensions: expect.arrayContaining([
          expect.objectContaining({ Name: 'Resource', Value: expect.anything() }),
          expect.objectContaining({ Name: 'FunctionName', Value: expect.anything() }),
        ]),
      });
      expect(mentions(lambdaErrors.Dimensions, fn.id)).toBe(true);
      const refusals = queries(errors!).find((q) => q.MetricStat?.Metric.MetricName === 'SignUpsRefused');
      expect(Boolean(refusals)).toBe(fn.id.startsWith('UsersPreSignUp'));
      if (refusals) {
        expect(queries(errors!).find((q) => q.Expression)?.Expression).toBe('errors - FILL(refused, 0)');
        expect(refusals.Id).toBe('refused');
      }
      // An API's function also rolls back on its API's 5xx rate.
      if (/ApiHandler/.test(fn.id)) {
        const rate = alarms.find((a) => a.Properties.MetricName === '5XXError');
        expect(rate?.Properties).toMatchObject({
          Namespace: 'AWS/ApiGateway',
          Statistic: 'Average',
          Threshold: ALARM_THRESHOLDS.api5xxRate.threshold,
        });
      }
    },
  );

  it('has API Gateway, the queues, the IoT rules, the schedules and Cognito invoke the live alias', () => {
    const invokes = (key: string, value: unknown) => {
      const template = withFunctions.find(([k]) => k === key)![1];
      const aliasIds = Object.keys(resourcesOfType(template, 'AWS::Lambda::Alias'));
      return aliasIds.some((id) => mentions(value, id));
    };
    const methods = all('AWS::ApiGateway::Method').filter((m) => m.resource.Properties.HttpMethod !== 'OPTIONS');
    expect(methods.length).toBeGreaterThan(50);
    for (const m of methods) {
      expect([m.key, m.id, invokes(m.key, (m.resource.Properties.Integration as { Uri: unknown }).Uri)]).toEqual([
        m.key,
        m.id,
        true,
      ]);
    }
    const mappings = all('AWS::Lambda::EventSourceMapping');
    expect(mappings.length).toBeGreaterThan(0);
    for (const m of mappings) expect([m.id, invokes(m.key, m.resource.Properties.FunctionName)]).toEqual([m.id, true]);
    const rules = all('AWS::IoT::TopicRule');
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) expect([r.id, invokes(r.key, r.resource.Properties.TopicRulePayload)]).toEqual([r.id, true]);
    const schedules = all('AWS::Events::Rule');
    expect(schedules.length).toBeGreaterThan(0);
    for (const s of schedules) expect([s.id, invokes(s.key, s.resource.Properties.Targets)]).toEqual([s.id, true]);
    const [pool] = all('AWS::Cognito::UserPool');
    expect(invokes('auth', pool!.resource.Properties.LambdaConfig)).toBe(true);
    // Each invoker's permission is on the alias too, or Lambda would refuse the call.
    for (const p of all('AWS::Lambda::Permission')) {
      expect([p.id, invokes(p.key, p.resource.Properties.FunctionName)]).toEqual([p.id, true]);
    }
  });
});
