import type { Template } from 'aws-cdk-lib/assertions';
import { TABLES, type TableKey } from '../../functions/_shared/tables';
import { AUDIT_LOG_ACCESS, SCHEDULED_JOBS, SERVICE_RESOURCES, SESSION_TABLE } from '../../infra/definitions/services';
import { STRIPE_SECRET, STRIPE_WEBHOOK_SECRET } from '../../infra/definitions/storage';
import { constructId } from '../../infra/services/construct-id';
import { areasWithRoutes, areasWithStacks } from '../../infra/stacks/api-stack';
import type { AreaName } from '../../shared/contracts/areas';
import { AREAS } from '../../shared/contracts/areas';
import { normalizePath } from '../../shared/contracts/define-route';
import { OPENAPI_PATH } from '../../shared/contracts/openapi';
import { areaTemplate, liveAliasOf, mentions, resourcesOfType, synthesizedTemplates } from './synth';

const ENV = 'prod';
const templates = synthesizedTemplates(ENV);
/** The API stack: the account-wide logging setting, one nested stack per area, the URLs as outputs. */
const api = templates.api;
/** Each area's own resources (API, Lambda, grants, jobs) are in its nested stack's template. */
const areaTemplates = areasWithStacks().map((name) => areaTemplate(templates, name));

const restApiId = (template: Template, name: string): string => {
  const ids = Object.entries(resourcesOfType(template, 'AWS::ApiGateway::RestApi'))
    .filter(([, r]) => r.Properties.Name === `device-data-${ENV}-${name}`)
    .map(([id]) => id);
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

/** `GET /parameters/{id}`, … for every method of one REST API, rebuilt from the template's resource tree. */
const methodsOf = (template: Template, apiId: string): string[] => {
  const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const pathOf = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    if (!id) return ''; // Fn::GetAtt [api, RootResourceId]
    const resource = resources[id]!;
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  };
  return Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method'))
    .filter((m) => mentions(m.Properties.RestApiId, apiId) && m.Properties.HttpMethod !== 'OPTIONS')
    .map((m) => `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId) || '/'}`)
    .sort();
};

const functionOf = (area: AreaName) => {
  const found = Object.entries(resourcesOfType(areaTemplate(templates, area), 'AWS::Lambda::Function')).filter(
    ([, f]) => String(f.Properties.Description).includes(`the ${area} API`),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe.each(areasWithRoutes())('the %s API', (name) => {
  const area = AREAS[name];
  const template = areaTemplate(templates, name);
  const apiId = restApiId(template, name);

  it('has one method per route of the contract, on the route’s resource path, its OpenAPI document, and nothing else', () => {
    const expected = [
      ...Object.values(area.routes).map((route) => `${route.method} ${normalizePath(route.path)}`),
      `GET ${OPENAPI_PATH}`,
    ].sort();
    expect(methodsOf(template, apiId)).toEqual(expected);
  });

  it("proxies every route to the area's Lambda", () => {
    const [functionId] = functionOf(name);
    const methods = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method')).filter(
      (m) => mentions(m.Properties.RestApiId, apiId) && m.Properties.HttpMethod !== 'OPTIONS',
    );
    const aliasId = liveAliasOf(template, functionId);
    for (const method of methods) {
      expect(method.Properties.Integration).toMatchObject({ Type: 'AWS_PROXY' });
      expect(mentions(method.Properties.Integration, aliasId)).toBe(true);
    }
  });

  it('logs access, traces, throttles, and names its stage after the environment', () => {
    const stage = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Stage')).find((s) =>
      mentions(s.Properties.RestApiId, apiId),
    );
    expect(stage?.Properties).toMatchObject({
      StageName: ENV,
      TracingEnabled: true,
      AccessLogSetting: { DestinationArn: expect.anything(), Format: expect.stringContaining('$context.requestId') },
    });
    // The stage-wide setting, and a throttled route's own (test/infra/route-throttles.test.ts): all log errors only.
    const settings = stage?.Properties.MethodSettings as Record<string, unknown>[];
    expect(settings).toContainEqual(expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*' }));
    for (const setting of settings) {
      expect(setting).toMatchObject({
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
        ThrottlingRateLimit: expect.any(Number),
      });
    }
  });

  it('runs on Node.js 22, ARM, with the environment the handler reads', () => {
    const [, fn] = functionOf(name);
    const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
    });
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining([
        'AUTH_ISSUER',
        'AUTH_CLIENT_IDS',
        'CORS_ORIGINS',
        ...SERVICE_RESOURCES[name].tables.map((t) => TABLES[t].envVar),
        ...(SERVICE_RESOURCES[name].readTables ?? []).map((t) => TABLES[t].envVar),
        ...(SERVICE_RESOURCES[name].keyReadTables ?? []).map((t) => TABLES[t].envVar),
        TABLES[SESSION_TABLE].envVar,
      ]),
    );
    expect(JSON.stringify(variables.AUTH_ISSUER)).toContain('https://cognito-idp.');
    // Issue 19: prod answers CORS for its own web origin alone (the distribution's domain), nothing local.
    expect(JSON.stringify(variables.CORS_ORIGINS)).not.toMatch(/localhost|\*/);
    expect(JSON.stringify(variables.CORS_ORIGINS)).toMatch(/DomainName/);
  });

  it('may use DynamoDB on its own tables only, and only read those it reads', () => {
    const [, fn] = functionOf(name);
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const readOnly = [...(SERVICE_RESOURCES[name].readTables ?? []), ...(SERVICE_RESOURCES[name].keyReadTables ?? [])];
    // Every area reads the caller's session record on each signed-in request.
    if (!SERVICE_RESOURCES[name].tables.includes(SESSION_TABLE)) readOnly.push(SESSION_TABLE);
    // The audit log (test/infra/audit.test.ts holds its exact actions): an audited area appends to it and reads the
    // acting staff member's e-mail from the users table.
    const { append, search } = AUDIT_LOG_ACCESS[name];
    const users = [...SERVICE_RESOURCES[name].tables, ...readOnly].includes('users');
    if (append && !users) readOnly.push('users');
    const own: TableKey[] = [
      ...SERVICE_RESOURCES[name].tables,
      ...readOnly,
      ...(append || search ? ['auditLog' as const] : []),
    ];
    const others = (Object.keys(TABLES) as TableKey[]).filter((t) => !own.includes(t));
    const statements = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
      .filter((p) => mentions(p.Properties.Roles, roleId))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
    const dynamo = statements.filter((s) => [s.Action].flat().some((a) => String(a).startsWith('dynamodb:')));

    if (own.length === 0) expect(dynamo).toEqual([]);
    else expect(dynamo.length).toBeGreaterThan(0);
    for (const statement of dynamo) {
      expect([statement.Action].flat()).not.toContain('dynamodb:*');
      for (const resource of [statement.Resource].flat()) {
        expect(resource).not.toBe('*');
        expect(own.some((t) => mentions(resource, TABLES[t].constructId))).toBe(true);
        expect(others.some((t) => mentions(resource, TABLES[t].constructId))).toBe(false);
        // A table read with a few attributes updated (e.g. a credential's lastUsed): least-privilege.test.ts holds
        // that grant's exact condition.
        const updatesAttributes =
          statement.Condition !== undefined && [statement.Action].flat().join() === 'dynamodb:UpdateItem';
        if (readOnly.some((t) => mentions(resource, TABLES[t].constructId)) && !updatesAttributes) {
          for (const action of [statement.Action].flat()) {
            expect(String(action)).toMatch(/^dynamodb:(Get|BatchGet|Query|Scan|ConditionCheck|Describe)/);
          }
        }
      }
    }
  });
});

const statementsOf = (template: Template, fn: { Properties: Record<string, unknown> }) => {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => mentions(p.Properties.Roles, roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
};

const withActionPrefix = (statements: Record<string, unknown>[], prefix: string) =>
  statements.filter((s) => [s.Action].flat().some((a) => String(a).startsWith(prefix)));

describe('identity administration and e-mail', () => {
  it('lets only the users area administer the user pool (notifications only lists group members), on that pool only, without pool-wide actions', () => {
    for (const name of areasWithRoutes()) {
      const cognito = withActionPrefix(
        statementsOf(areaTemplate(templates, name), functionOf(name)[1]),
        'cognito-idp:',
      );
      if (SERVICE_RESOURCES[name].identityGroups && !SERVICE_RESOURCES[name].identityAdmin) {
        // Audiences by role read the groups' members, and nothing else of the pool.
        expect(cognito).toHaveLength(1);
        expect(cognito[0]!.Action).toBe('cognito-idp:ListUsersInGroup');
        expect(JSON.stringify(cognito[0]!.Resource)).toContain('UserPool');
        continue;
      }
      if (!SERVICE_RESOURCES[name].identityAdmin) {
        expect(cognito).toEqual([]);
        continue;
      }
      expect(cognito.length).toBeGreaterThan(0);
      for (const statement of cognito) {
        expect(JSON.stringify(statement.Resource)).toContain('UserPool');
        expect([statement.Resource].flat()).not.toContain('*');
        expect([statement.Action].flat()).not.toEqual(
          expect.arrayContaining([expect.stringMatching(/^cognito-idp:(\*|DeleteUserPool|UpdateUserPool)/)]),
        );
      }
    }
  });

  it('lets only areas that send mail call SES, from the environment identity only', () => {
    for (const name of areasWithRoutes()) {
      const [, fn] = functionOf(name);
      const ses = withActionPrefix(statementsOf(areaTemplate(templates, name), fn), 'ses:');
      if (!SERVICE_RESOURCES[name].email) {
        expect(ses).toEqual([]);
        continue;
      }
      expect(ses).toHaveLength(1);
      expect(ses[0]!.Action).toBe('ses:SendEmail');
      expect(JSON.stringify(ses[0]!.Resource)).toContain(':identity/');
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.MAIL_FROM).toBe('no-reply@device-data.app');
      // Only as the platform's own sender: a bug cannot send as another address of the identity.
      expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@device-data.app' } });
    }
  });
});

describe('billing', () => {
  const variablesOf = (fn: { Properties: Record<string, unknown> }) =>
    (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

  it('lets only areas with billing read the Stripe key, from that one secret, and tells them its ARN (and the webhook area its signing secret)', () => {
    expect(areasWithRoutes().filter((name) => SERVICE_RESOURCES[name].billing)).toContain('users');
    for (const name of areasWithRoutes()) {
      const [, fn] = functionOf(name);
      const secrets = withActionPrefix(statementsOf(areaTemplate(templates, name), fn), 'secretsmanager:');
      const variables = variablesOf(fn);
      if (!SERVICE_RESOURCES[name].billing) {
        expect(secrets).toEqual([]);
        expect(variables[STRIPE_SECRET.envVar]).toBeUndefined();
        continue;
      }
      // CDK may merge the statements: every one GetSecretValue only, on the key and, for the area that receives
      // Stripe's webhook, its signing secret; nothing else.
      for (const statement of secrets) expect(statement.Action).toBe('secretsmanager:GetSecretValue');
      const resources = secrets.flatMap((statement) => [statement.Resource].flat());
      const expected = SERVICE_RESOURCES[name].billingWebhook
        ? [STRIPE_SECRET.constructId, STRIPE_WEBHOOK_SECRET.constructId]
        : [STRIPE_SECRET.constructId];
      expect(resources).toHaveLength(expected.length);
      for (const id of expected) expect(resources.filter((resource) => mentions(resource, id))).toHaveLength(1);
      expect(mentions(variables[STRIPE_SECRET.envVar], STRIPE_SECRET.constructId)).toBe(true);
      if (SERVICE_RESOURCES[name].billingWebhook) {
        expect(mentions(variables[STRIPE_WEBHOOK_SECRET.envVar], STRIPE_WEBHOOK_SECRET.constructId)).toBe(true);
      }
    }
  });

  it('gives no scheduled job the Stripe key (none calls Stripe)', () => {
    for (const job of SCHEDULED_JOBS) {
      const template = areaTemplate(templates, job.area);
      const [, fn] = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).find(([, f]) =>
        String(f.Properties.Description).includes(`the ${job.name} job`),
      )!;
      expect(withActionPrefix(statementsOf(template, fn), 'secretsmanager:')).toEqual([]);
      expect(variablesOf(fn)[STRIPE_SECRET.envVar]).toBeUndefined();
    }
  });

  it('puts no Stripe key in any Lambda environment, and no Stripe API URL (the cloud talks to Stripe)', () => {
    for (const template of Object.values(templates)) {
      for (const fn of Object.values(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        const variables = variablesOf(fn);
        expect(variables.STRIPE_SECRET_KEY).toBeUndefined();
        expect(variables.STRIPE_API_URL).toBeUndefined();
        expect(JSON.stringify(variables)).not.toMatch(/\b[sr]k_(test|live)_/);
      }
    }
  });
});

describe('scheduled jobs', () => {
  it.each(SCHEDULED_JOBS.map((job) => [job.name, job] as const))(
    'runs %s on its rate with its area grants',
    (_n, job) => {
      // A job lives in its area's nested stack, beside the API whose grants it shares.
      const template = areaTemplate(templates, job.area);
      const rules = Object.values(resourcesOfType(template, 'AWS::Events::Rule')).filter((r) =>
        String(r.Properties.Description).includes(job.name),
      );
      expect(rules).toHaveLength(1);
      // CDK spells whole hours as hours.
      const minutes = /^rate\((\d+) (minutes?|hours?)\)$/.exec(String(rules[0]!.Properties.ScheduleExpression));
      expect(minutes && Number(minutes[1]) * (minutes[2]!.startsWith('hour') ? 60 : 1)).toBe(job.everyMinutes);
      const [functionId, fn] = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).find(([, f]) =>
        String(f.Properties.Description).includes(`the ${job.name} job`),
      )!;
      expect(mentions(rules[0]!.Properties.Targets, liveAliasOf(template, functionId))).toBe(true);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(variables)).toEqual(
        expect.arrayContaining(SERVICE_RESOURCES[job.area].tables.map((t) => TABLES[t].envVar)),
      );
    },
  );
});

describe('the API stack', () => {
  it('creates an API for every area that has routes, each in its own nested stack, and none for the others', () => {
    expect(resourcesOfType(api, 'AWS::ApiGateway::RestApi')).toEqual({});
    const names = areaTemplates.flatMap((t) =>
      Object.values(resourcesOfType(t, 'AWS::ApiGateway::RestApi')).map((r) => r.Properties.Name),
    );
    expect(names.sort()).toEqual(
      areasWithRoutes()
        .map((n) => `device-data-${ENV}-${n}`)
        .sort(),
    );
    // restApiId expects exactly one API of that name in the area's own template.
    for (const name of areasWithRoutes()) expect(restApiId(areaTemplate(templates, name), name)).toBeTruthy();
  });

  it('keeps no Lambda, method or job in the parent: every area resource is in its nested stack', () => {
    for (const type of ['AWS::Lambda::Function', 'AWS::ApiGateway::Method', 'AWS::Events::Rule', 'AWS::IAM::Policy']) {
      expect(resourcesOfType(api, type)).toEqual({});
    }
    expect(Object.keys(resourcesOfType(api, 'AWS::CloudFormation::Stack'))).toHaveLength(areasWithStacks().length);
  });

  it('sets the account-wide API Gateway logging role once, and deploys every area after it', () => {
    const accounts = Object.entries(resourcesOfType(api, 'AWS::ApiGateway::Account'));
    expect(accounts).toHaveLength(1);
    const [accountId, account] = accounts[0]!;
    expect(mentions(account.Properties.CloudWatchRoleArn, 'ApiGatewayCloudWatchRole')).toBe(true);
    // The stage's dependency on the account setting becomes its nested stack's dependency in the parent.
    const nestedStacks = Object.entries(resourcesOfType(api, 'AWS::CloudFormation::Stack'));
    for (const name of areasWithRoutes()) {
      const nested = nestedStacks.filter(([id]) => id.startsWith(`${constructId(name)}NestedStack`));
      expect(nested).toHaveLength(1);
      expect(nested[0]![1].DependsOn).toEqual(expect.arrayContaining([accountId]));
    }
    for (const template of areaTemplates) expect(resourcesOfType(template, 'AWS::ApiGateway::Account')).toEqual({});
  });

  it("outputs every area's base URL from the parent stack, where `cdk deploy` prints it", () => {
    const outputs = api.toJSON().Outputs as Record<string, { Description?: string }>;
    for (const name of areasWithRoutes()) {
      expect(Object.values(outputs).some((o) => o.Description === `Base URL of the ${name} API`)).toBe(true);
    }
  });

  it('answers CORS preflights for the web origin only in prod', () => {
    const options = areaTemplates.flatMap((t) =>
      Object.values(resourcesOfType(t, 'AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod === 'OPTIONS'),
    );
    expect(options.length).toBeGreaterThan(0);
    for (const method of options) expect(JSON.stringify(method.Properties)).not.toContain('localhost');
  });
});
