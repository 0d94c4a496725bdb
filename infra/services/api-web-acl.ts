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
 * One regional web ACL for every API of an environment (a web ACL has a monthly fee, its associations none):
 * a rate rule per client address first, then AWS's common and known-bad-inputs rule groups.
 */
export class ApiWebAcl extends Construct {
  readonly arn: string;

  constructor(
    scope: Construct,
    id: string,
    props: { settings: EnvironmentSettings; waf: { ratePerFiveMinutes: number } },
  ) {
    super(scope, id);
    const env = props.settings.name;
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
      visibilityConfig: visibility(`${env}-${name}`),
    });
    const acl = new CfnWebACL(this, 'WebAcl', {
      name: `device-data-${env}-apis`,
      description: `device-data ${env} - in front of every service area API`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`device-data-${env}-apis`),
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
          visibilityConfig: visibility(`${env}-${WEB_ACL_RULES.rate}`),
        },
        managed(WEB_ACL_RULES.common, 1, COUNTED_COMMON_RULES),
        managed(WEB_ACL_RULES.knownBadInputs, 2),
      ],
    });
    this.arn = acl.attrArn;
  }
}
