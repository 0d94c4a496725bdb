import { CLOUD_ENVIRONMENTS } from '../../infra/app';
import { CLOUDFRONT_CERTIFICATE_REGION, environmentSettings } from '../../infra/definitions/environments';
import { WEB_ACL_RULES } from '../../infra/services/api-web-acl';
import { resourcesOfType, synthesize } from './synth';

type Rule = {
  Name: string;
  Priority: number;
  Action?: Record<string, unknown>;
  OverrideAction?: Record<string, unknown>;
  Statement: {
    RateBasedStatement?: { Limit: number; AggregateKeyType: string; EvaluationWindowSec: number };
    ManagedRuleGroupStatement?: { VendorName: string; Name: string; RuleActionOverrides?: unknown[] };
  };
  VisibilityConfig: { CloudWatchMetricsEnabled: boolean; SampledRequestsEnabled: boolean };
};

const distributionConfig = (templates: ReturnType<typeof synthesize>['templates']) => {
  const distributions = Object.values(resourcesOfType(templates.web, 'AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  return distributions[0]!.Properties.DistributionConfig as Record<string, unknown>;
};

describe('WAF on CloudFront: the settings', () => {
  it.each(CLOUD_ENVIRONMENTS)('%s guards its distribution exactly where it guards its APIs', (envName) => {
    const settings = environmentSettings(envName);
    expect(settings.webWaf !== undefined).toBe(settings.waf !== undefined);
  });

  it('guards preview and prod', () => {
    expect(environmentSettings('prod').webWaf).toBeDefined();
    expect(environmentSettings('preview').webWaf).toBeDefined();
  });

  it('refuses a rate rule below what a person\u2019s own page loads would trip', () => {
    expect(() => environmentSettings('dev', { webWaf: { ratePerFiveMinutes: 10 } })).toThrow(/webWaf/);
  });
});

describe('WAF on CloudFront in prod', () => {
  const settings = environmentSettings('prod');
  const { stacks, templates } = synthesize('prod');
  const edge = templates.edge;

  it('lives in a stack of its own in us-east-1, the only region WAF takes CLOUDFRONT-scope web ACLs in', () => {
    expect(stacks.edge?.region).toBe(CLOUDFRONT_CERTIFICATE_REGION);
    expect(stacks.edge?.stackName).toBe('DeviceData-prod-Edge');
    expect(edge).toBeDefined();
  });

  it('blocks an address over the rate, then runs AWS common and known-bad-inputs rule groups, all blocking', () => {
    const acls = Object.values(resourcesOfType(edge!, 'AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    const acl = acls[0]!.Properties;
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const rules = (acl.Rules as Rule[]).sort((a, b) => a.Priority - b.Priority);
    expect(rules.map((r) => r.Name)).toEqual([WEB_ACL_RULES.rate, WEB_ACL_RULES.common, WEB_ACL_RULES.knownBadInputs]);
    expect(rules[0]!.Action).toEqual({ Block: {} });
    expect(rules[0]!.Statement.RateBasedStatement).toEqual({
      Limit: settings.webWaf!.ratePerFiveMinutes,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
    });
    for (const managed of rules.slice(1)) {
      expect(managed.OverrideAction).toEqual({ None: {} });
      expect(managed.Statement.ManagedRuleGroupStatement?.VendorName).toBe('AWS');
      // The distribution takes GET and HEAD only: no rule of the sets is turned to count, unlike the APIs' body rule.
      expect(managed.Statement.ManagedRuleGroupStatement?.RuleActionOverrides).toBeUndefined();
    }
    for (const rule of rules) {
      expect(rule.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    }
  });

  it("is the web distribution's web ACL, read from the edge stack's output in us-east-1", () => {
    const webAclId = distributionConfig(templates).WebACLId as {
      'Fn::GetStackOutput'?: { StackName: string; Region: string; OutputName: string };
    };
    const output = webAclId['Fn::GetStackOutput'];
    expect(output).toMatchObject({ StackName: 'DeviceData-prod-Edge', Region: CLOUDFRONT_CERTIFICATE_REGION });
    const [aclId] = Object.keys(resourcesOfType(edge!, 'AWS::WAFv2::WebACL'));
    const outputs = edge!.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs[output!.OutputName]?.Value).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
  });
});

describe('no WAF on CloudFront in dev (a developer environment, as for its APIs)', () => {
  const { stacks, templates } = synthesize('dev');

  it('has no edge stack and no web ACL on the distribution', () => {
    expect(stacks.edge).toBeUndefined();
    expect(templates.edge).toBeUndefined();
    expect(distributionConfig(templates).WebACLId).toBeUndefined();
  });
});
