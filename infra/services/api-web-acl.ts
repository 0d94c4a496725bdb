import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { EnvironmentSettings } from '../definitions/environments';

/** Names of the web ACL's rules, as CloudWatch's WAF metrics and the sampled requests show them. */
export const WEB_ACL_RULES = {
  rate: 'RatePerAddress',
  common: 'AWSManagedRulesCommonRuleSet',
  knownBadInputs: 'AWSManagedRulesKnownBadInputsRuleSet',
} as const;

/**
 * The common rule set's rules that only count here: `SizeRestrictions_BODY` blocks bodies over 8 KB, and bulk
 * routes (readings batches, relation look-ups, dataset builds) send more; the Lambda validates every body's shape and
 * API Gateway caps its size (10 MB).
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

/**
 * A web ACL: a rate rule per client address first, then AWS's common and known-bad-inputs rule groups. One regional
 * web ACL serves every API of an environment (a web ACL has a monthly fee, its associations none); the web
 * distribution has a CLOUDFRONT-scope one of its own, created in us-east-1 by the edge stack.
 */
export class ApiWebAcl extends Construct {
  readonly arn: string;

  constructor(
    scope: Construct,
    id: string,
    props: {
      settings: EnvironmentSettings;
      waf: { ratePerFiveMinutes: number };
      /**
       * REGIONAL for API Gateway stages; CLOUDFRONT for a distribution (its stack must be in us-east-1).
       * @default 'REGIONAL'
       */
      scope?: 'REGIONAL' | 'CLOUDFRONT';
    },
  ) {
    super(scope, id);
    const env = props.settings.name;
    const cloudFront = props.scope === 'CLOUDFRONT';
    // The distribution takes GET and HEAD only: no body for the 8 KB rule to count, so the whole set blocks.
    const counted = cloudFront ? [] : COUNTED_COMMON_RULES;
    const purpose = cloudFront ? 'web' : 'apis';
    const metric = (name: string) => (cloudFront ? `${env}-web-${name}` : `${env}-${name}`);
    const managed = (name: string, priority: number, counted: readonly string[] = []): CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(counted.length > 0
            ? { ruleActionOverrides: counted.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }
            : {}),
        },
      },
      visibilityConfig: visibility(metric(name)),
    });
    const acl = new CfnWebACL(this, 'WebAcl', {
      name: `device-data-${env}-${purpose}`,
      description: cloudFront
        ? `device-data ${env} - in front of the web app distribution`
        : `device-data ${env} - in front of every service area API`,
      scope: props.scope ?? 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`device-data-${env}-${purpose}`),
      rules: [
        {
          name: WEB_ACL_RULES.rate,
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: props.waf.ratePerFiveMinutes,
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
            },
          },
          visibilityConfig: visibility(metric(WEB_ACL_RULES.rate)),
        },
        managed(WEB_ACL_RULES.common, 1, counted),
        managed(WEB_ACL_RULES.knownBadInputs, 2),
      ],
    });
    this.arn = acl.attrArn;
  }
}
