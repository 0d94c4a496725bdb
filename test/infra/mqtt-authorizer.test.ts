import type { Template } from 'aws-cdk-lib/assertions';
import { TABLES } from '../../functions/_shared/tables';
import { MQTT_AUTHORIZER_ENV } from '../../functions/data-ingress/wiring/mqtt-authorizer';
import { CLOUD_ENVIRONMENTS, type CloudEnvName } from '../../infra/app';
import { IOT_AUTHORIZERS } from '../../infra/definitions/services';
import { areaTemplate, liveAliasOf, mentions, resourcesOfType, synthesizedTemplates } from './synth';

/**
 * The devices' MQTT custom authorizer (docs/decisions/031-mqtt-custom-authorizer.md): one per environment, named by
 * it, taking user name and password (signing disabled), invocable by IoT Core for that authorizer only, and running
 * with nothing but a key read of the credentials table.
 */

type Resource = { Properties: Record<string, unknown> };
type Statement = { Effect?: string; Action: unknown; Resource: unknown };
const actionsOf = (statement: Statement) => [statement.Action].flat().map(String);

const [definition] = IOT_AUTHORIZERS;
if (!definition) throw new Error('No IoT authorizer is defined');

it('names each cloud environment’s authorizer apart, as authorizer names are account-wide', () => {
  const names = CLOUD_ENVIRONMENTS.map((env) => definition.authorizerName(env));
  expect(new Set(names).size).toBe(CLOUD_ENVIRONMENTS.length);
  expect(definition.authorizerName('prod')).toBe('device-data-prod-devices');
});

describe.each(['prod', 'dev'] as CloudEnvName[])('the devices’ MQTT authorizer on %s', (env) => {
  const templates = synthesizedTemplates(env);
  const template: Template = areaTemplate(templates, definition.area);
  const authorizers = Object.entries(resourcesOfType(template, 'AWS::IoT::Authorizer'));
  const functions = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(([, f]) =>
    String(f.Properties.Description).includes(`the ${definition.name} IoT custom authorizer`),
  );
  const [functionId, fn] = functions[0] ?? ['', { Properties: {} } as Resource];
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] } | undefined)?.['Fn::GetAtt'][0] ?? '';

  it('exists once, named by the environment, with signing disabled and active, calling its function', () => {
    expect(functions).toHaveLength(1);
    expect(authorizers).toHaveLength(1);
    const properties = authorizers[0]![1].Properties;
    // Through the function's live alias, which CodeDeploy shifts (docs/decisions/032-edge-and-gradual-deploys.md).
    expect(mentions(properties.AuthorizerFunctionArn, liveAliasOf(template, functionId))).toBe(true);
    expect(properties).toMatchObject({
      AuthorizerName: `device-data-${env}-devices`,
      SigningDisabled: true,
      Status: 'ACTIVE',
    });
  });

  it('lets IoT Core invoke the function for this authorizer only, in this account', () => {
    const alias = liveAliasOf(template, functionId);
    const permissions = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter(
      (p) => mentions(p.Properties.FunctionName, functionId) || mentions(p.Properties.FunctionName, alias),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]!.Properties).toMatchObject({
      Action: 'lambda:InvokeFunction',
      Principal: 'iot.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [authorizers[0]![0], 'Arn'] },
      SourceAccount: { Ref: 'AWS::AccountId' },
    });
  });

  it('may read a credential by its key, its logs and traces, and nothing else: no IoT or Cognito grant', () => {
    const role = resourcesOfType(template, 'AWS::IAM::Role')[roleId]!;
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
    const statements = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
      .filter((p) => mentions(p.Properties.Roles, roleId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
    const actions = statements.flatMap(actionsOf);
    expect(actions.filter((a) => /^(iot|iotdata|cognito-identity|cognito-idp|sts|lambda):/.test(a))).toEqual([]);
    expect(
      actions.filter(
        (a) => !/^(logs:CreateLogStream|logs:PutLogEvents|xray:Put(TraceSegments|TelemetryRecords))$/.test(a),
      ),
    ).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem']);
    const onTables = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(onTables).toHaveLength(1);
    expect(JSON.stringify(onTables[0]!.Resource)).toContain(TABLES.deviceCredentials.constructId);
    expect(statements.filter((s) => s.Effect !== 'Allow')).toEqual([]);
  });

  it('is told the credentials table and the IoT resources of its account and region, nothing more', () => {
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(variables)).toEqual(expect.arrayContaining(Object.values(MQTT_AUTHORIZER_ENV)));
    // `arn:{partition}:iot:{region}:{account}` of the stack the function runs in.
    const prefix = JSON.stringify(variables.IOT_ARN_PREFIX);
    expect(prefix).toMatch(/"arn:(aws|",\{"Ref":"AWS::Partition"\},"):iot:/);
    expect(prefix).toContain('{"Ref":"AWS::AccountId"}');
    expect(Object.keys(variables).filter((name) => name.endsWith('_TABLE'))).toEqual([TABLES.deviceCredentials.envVar]);
  });

  it('opens the Basic Ingest topics of this environment’s ingest rules, the rules the stack creates (decision 043)', () => {
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const rules = Object.values(resourcesOfType(template, 'AWS::IoT::TopicRule')).map((r) => r.Properties.RuleName);
    expect(variables.READINGS_RULE_NAME).toBe(`DataIngressReadings_${env}`);
    expect(rules).toContain(variables.READINGS_RULE_NAME);
    expect(variables.FIRMWARE_STATUS_RULE_NAME).toBe(`DataIngressFirmwareStatus_${env}`);
    expect(rules).toContain(variables.FIRMWARE_STATUS_RULE_NAME);
  });
});
