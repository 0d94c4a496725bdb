import { environmentSettings } from '../../infra/definitions/environments';
import { SERVICE_RESOURCES } from '../../infra/definitions/services';
import { WEB_ACL_RULES } from '../../infra/services/api-web-acl';
import { areasWithRoutes } from '../../infra/stacks/api-stack';
import { areaTemplate, resourcesOfType, synthesize, synthesizedTemplates } from './synth';

/** Certificates the operator would have made (any account; only their region and form matter to the synth). */
const API_CERTIFICATE = 'arn:aws:acm:us-west-2:123456789012:certificate/11111111-2222-3333-4444-555555555555';
const WEB_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/66666666-7777-8888-9999-000000000000';

const variablesOf = (fn: { Properties: Record<string, unknown> }) =>
  ((fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<
    string,
    unknown
  >;

describe('an environment with its own domains and a web ACL (prod, as the README says to configure it)', () => {
  const { templates, stacks } = synthesize('prod', {
    settings: {
      apiDomain: { name: 'api.device-data.app', certificateArn: API_CERTIFICATE },
      webDomain: { name: 'device-data.app', certificateArn: WEB_CERTIFICATE },
    },
  });

  it.each(areasWithRoutes())(
    'the %s API answers on {area}.{api host} only, with TLS 1.2 and the certificate',
    (area) => {
      const template = areaTemplate(templates, area);
      const domains = Object.values(resourcesOfType(template, 'AWS::ApiGateway::DomainName'));
      expect(domains.map((d) => d.Properties)).toEqual([
        expect.objectContaining({
          DomainName: `${area}.api.device-data.app`,
          RegionalCertificateArn: API_CERTIFICATE,
          EndpointConfiguration: { Types: ['REGIONAL'] },
          SecurityPolicy: 'TLS_1_2',
        }),
      ]);
      // The stage at the domain's root, and the execute-api address off: the domain is the one way in.
      const mappings = Object.values(resourcesOfType(template, 'AWS::ApiGateway::BasePathMapping'));
      expect(mappings).toHaveLength(1);
      expect(mappings[0]!.Properties.BasePath).toBeUndefined();
      const [api] = Object.values(resourcesOfType(template, 'AWS::ApiGateway::RestApi'));
      expect(api!.Properties.DisableExecuteApiEndpoint).toBe(true);
      expect(stacks.api.apiBaseUrls[area]).toBe(`https://${area}.api.device-data.app`);
    },
  );

  it('serves the web app on its domain with the us-east-1 certificate and TLSv1.2_2021, and the APIs answer it', () => {
    const [distribution] = Object.values(resourcesOfType(templates.web, 'AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig as Record<string, unknown>;
    expect(config.Aliases).toEqual(['device-data.app']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: WEB_CERTIFICATE,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(stacks.web.origin).toBe('https://device-data.app');
  });

  it('takes live Stripe keys in its billing functions, and throttles each stage at its own rate', () => {
    const settings = environmentSettings('prod');
    for (const area of areasWithRoutes()) {
      const template = areaTemplate(templates, area);
      const stage = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0]!;
      // The stage-wide setting; throttled routes add their own (test/infra/route-throttles.test.ts).
      expect([area, stage.Properties.MethodSettings]).toEqual([
        area,
        expect.arrayContaining([
          expect.objectContaining({
            HttpMethod: '*',
            ResourcePath: '/*',
            ThrottlingRateLimit: settings.apiThrottling.rateLimit,
            ThrottlingBurstLimit: settings.apiThrottling.burstLimit,
          }),
        ]),
      ]);
      const handlers = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).filter((fn) =>
        String(fn.Properties.Description).includes(`the ${area} API`),
      );
      for (const fn of handlers) {
        expect([area, variablesOf(fn).STRIPE_MODE]).toEqual([
          area,
          SERVICE_RESOURCES[area].billing ? 'live' : undefined,
        ]);
      }
    }
  });

  it('puts one web ACL in front of every API: a rate rule per address, then AWS common and bad-input rules', () => {
    const acls = Object.values(resourcesOfType(templates.api, 'AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    const acl = acls[0]!.Properties as { Scope: string; DefaultAction: unknown; Rules: Record<string, unknown>[] };
    expect(acl.Scope).toBe('REGIONAL');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const rules = Object.fromEntries(acl.Rules.map((rule) => [rule.Name, rule]));
    expect(rules[WEB_ACL_RULES.rate]).toMatchObject({
      Priority: 0,
      Action: { Block: {} },
      Statement: {
        RateBasedStatement: { Limit: environmentSettings('prod').waf!.ratePerFiveMinutes, AggregateKeyType: 'IP' },
      },
    });
    expect(rules[WEB_ACL_RULES.common]).toMatchObject({
      OverrideAction: { None: {} },
      Statement: {
        ManagedRuleGroupStatement: {
          VendorName: 'AWS',
          Name: 'AWSManagedRulesCommonRuleSet',
          // Bulk routes send bodies over the rule set's 8 KB: that rule counts, every other blocks.
          RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
        },
      },
    });
    expect(rules[WEB_ACL_RULES.knownBadInputs]).toMatchObject({
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' } },
    });
    for (const area of areasWithRoutes()) {
      const template = areaTemplate(templates, area);
      const associations = Object.values(resourcesOfType(template, 'AWS::WAFv2::WebACLAssociation'));
      const [stageId] = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::Stage'));
      expect([area, associations.length]).toEqual([area, 1]);
      expect([area, JSON.stringify(associations[0]!.Properties.ResourceArn).includes(stageId!)]).toEqual([area, true]);
    }
  });
});

describe('an environment without domains of its own (dev)', () => {
  const { templates, stacks } = synthesize('dev');

  it('answers on the AWS-given names, with test Stripe keys and its own smaller throttle', () => {
    const settings = environmentSettings('dev');
    expect(settings.apiThrottling.rateLimit).toBeLessThan(environmentSettings('prod').apiThrottling.rateLimit);
    for (const area of areasWithRoutes()) {
      const template = areaTemplate(templates, area);
      expect(Object.keys(resourcesOfType(template, 'AWS::ApiGateway::DomainName'))).toEqual([]);
      const [api] = Object.values(resourcesOfType(template, 'AWS::ApiGateway::RestApi'));
      expect(api!.Properties.DisableExecuteApiEndpoint ?? false).toBe(false);
      expect(stacks.api.apiBaseUrls[area]).toContain('.execute-api.');
      const stage = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0]!;
      expect(stage.Properties.MethodSettings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ ResourcePath: '/*', ThrottlingRateLimit: settings.apiThrottling.rateLimit }),
        ]),
      );
      for (const fn of Object.values(resourcesOfType(template, 'AWS::Lambda::Function'))) {
        if (SERVICE_RESOURCES[area].billing && String(fn.Properties.Description).includes(`the ${area} API`)) {
          expect([area, variablesOf(fn).STRIPE_MODE]).toEqual([area, 'test']);
        }
      }
    }
    const [distribution] = Object.values(resourcesOfType(templates.web, 'AWS::CloudFront::Distribution'));
    expect((distribution!.Properties.DistributionConfig as Record<string, unknown>).Aliases).toBeUndefined();
    // A developer's environment has no web ACL (its fixed monthly fee); its stages are throttled instead.
    expect(Object.keys(resourcesOfType(templates.api, 'AWS::WAFv2::WebACL'))).toEqual([]);
  });
});

describe('one AWS account per environment (IoT Core is account-wide)', () => {
  it('refuses a synth into an account another environment names, or into any but its own', () => {
    const accounts = { prod: '111111111111', dev: '222222222222' };
    expect(() => synthesize('dev-1', { account: '111111111111', accounts })).toThrow(
      /Account 111111111111 is the prod environment's/,
    );
    expect(() => synthesize('dev', { account: '333333333333', accounts })).toThrow(
      /The dev environment deploys to account 222222222222; these credentials are for account 333333333333/,
    );
    expect(() => synthesize('dev', { accounts: { dev: '444444444444', preview: '444444444444' } })).toThrow(
      /The dev and preview environments name the same AWS account \(444444444444\)/,
    );
  });

  it("synthesizes into the environment's own account", () => {
    const { stacks } = synthesize('dev', { account: '222222222222', accounts: { dev: '222222222222' } });
    expect(stacks.data.account).toBe('222222222222');
  });

  it('keeps what IoT Core holds account-wide the same in every environment, which is why the rule above exists', () => {
    const shared = (['dev', 'prod'] as const).map((envName) => {
      const templates = synthesizedTemplates(envName);
      const [policy] = Object.values(resourcesOfType(templates.realtime, 'AWS::IoT::Policy'));
      const rules = Object.values(resourcesOfType(areaTemplate(templates, 'data-ingress'), 'AWS::IoT::TopicRule')).map(
        (rule) => (rule.Properties.TopicRulePayload as { Sql: string }).Sql,
      );
      return { policyName: policy!.Properties.PolicyName, rules };
    });
    // A second environment in one account fails its deploy on the policy's fixed name (spec §8) rather than sharing
    // devices silently; ACCOUNTS and checkAccount stop it before the deploy starts.
    expect(shared[0]).toEqual(shared[1]);
    expect(shared[0]!.policyName).toBe('IoTPolicyForCognito');
    expect(shared[0]!.rules.join()).toContain("FROM 'devices/+/readings'");
  });
});
