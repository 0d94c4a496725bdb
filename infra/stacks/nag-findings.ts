import { DefaultStackSynthesizer, type Stack, Token, Validations } from 'aws-cdk-lib';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { RegionInfo } from 'aws-cdk-lib/region-info';

const REASON =
  "Written by CDK's BucketDeployment for its own handler, which copies the build from the CDK asset bucket into " +
  'the site bucket (read, write, prune) and invalidates the distribution; the grants name those two buckets, ' +
  'and the CloudFront invalidation grant is the one CDK writes.';

/** cdk-nag spells an account that is unknown at synth time as this marker in a finding's resource. */
const findingAccount = (stack: Stack): string =>
  Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;

const findingPartition = (stack: Stack): string => RegionInfo.get(stack.region).partition ?? 'aws';

/** The start of an ARN as cdk-nag spells it in a finding (`arn:aws:iot:us-west-2:<AWS::AccountId>`). */
export const findingArnPrefix = (stack: Stack, service: string): string =>
  `arn:${findingPartition(stack)}:${service}:${stack.region}:${findingAccount(stack)}`;

/**
 * Acknowledges, one finding at a time, what cdk-nag reports on CDK's BucketDeployment handler in `stack`:
 * its role, policy and runtime come from aws-cdk-lib. Call it after creating the deployment.
 */
export const acknowledgeBucketDeploymentHandler = (stack: Stack, destination: IBucket): void => {
  const handler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!handler) throw new Error(`No BucketDeployment handler in ${stack.stackName}`);

  const synthesizer = stack.synthesizer;
  const qualifier =
    synthesizer instanceof DefaultStackSynthesizer
      ? (synthesizer.bootstrapQualifier ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER)
      : DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const assetBucket = `cdk-${qualifier}-assets-${findingAccount(stack)}-${stack.region}`;
  const destinationId = stack.getLogicalId(destination.node.defaultChild as CfnBucket);

  const findings = [
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    ...['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'].map((a) => `IAM5[Action::${a}]`),
    `IAM5[Resource::arn:${findingPartition(stack)}:s3:::${assetBucket}/*]`,
    `IAM5[Resource::<${destinationId}.Arn>/*]`,
    'IAM5[Resource::*]',
    'L1',
  ];
  Validations.of(handler).acknowledge(
    ...findings.map((finding) => ({ id: `AwsSolutions-${finding}`, reason: REASON })),
  );
};
