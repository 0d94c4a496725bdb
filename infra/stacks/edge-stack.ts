import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EnvironmentSettings } from '../definitions/environments';
import { ApiWebAcl } from '../services/api-web-acl';

/** Props of the {@link EdgeStack}. */
export interface EdgeStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** The environment's `webWaf`: the rate per address of the distribution's web ACL. */
  webWaf: { ratePerFiveMinutes: number };
}

/**
 * What CloudFront needs from us-east-1: the web distribution's CLOUDFRONT-scope WAF web ACL, which WAF creates only
 * in that region (docs/decisions/032-edge-and-gradual-deploys.md). The web stack (us-west-2) reads the ACL's ARN
 * through CDK's cross-region references: CDK writes it to an SSM parameter in us-west-2 on deploy, and the web
 * stack resolves it there; neither stack can be deleted while the other still uses it.
 */
export class EdgeStack extends Stack {
  /** The web ACL's ARN, for the distribution's `webAclId`. */
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    const acl = new ApiWebAcl(this, 'WebAppWebAcl', {
      settings: props.settings,
      waf: props.webWaf,
      scope: 'CLOUDFRONT',
    });
    this.webAclArn = acl.arn;
  }
}
