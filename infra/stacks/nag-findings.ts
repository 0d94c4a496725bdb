import { DefaultStackSynthesizer, type Stack, Token, Validations } from 'aws-cdk-lib';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource } from 'aws-cdk-lib/custom-resources';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import type { IConstruct } from 'constructs';

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
    {
      id: 'Serverless-LambdaLatestVersion',
      reason:
        "CDK's BucketDeployment handler: aws-cdk-lib picks its runtime, which moves with the CDK version we pin, " +
        'not with a setting here.',
    },
  );
  acknowledgeCdkDeployFunction(handler, "CDK's BucketDeployment handler", ['LambdaDLQ', 'LambdaTracing']);
};

/**
 * How a function is invoked, which decides whether a failed invocation leaves an event that a dead-letter queue could
 * keep (Serverless-LambdaDLQ: a DeadLetterConfig applies to asynchronous invocations only).
 */
export type Invocation = 'api' | 'cognito' | 'sqs' | 'provider' | 'iot' | 'iot-authorizer' | 'schedule';

const NO_DEAD_LETTER_TARGET: Record<Invocation, string> = {
  api:
    'Invoked synchronously by API Gateway (Lambda proxy integration): a failure returns to the caller as a 5xx ' +
    "and raises the function's error alarm; there is no event left to keep or retry.",
  cognito:
    'A Cognito trigger, invoked synchronously during sign-up, sign-in or confirmation: a failure fails that ' +
    'request, which the person retries; there is no event left to keep.',
  sqs:
    'Invoked synchronously by its SQS event-source mapping, so a DeadLetterConfig would never be used: a message ' +
    "failing maxReceiveCount times moves to the source queue's own dead-letter queue, which alarms.",
  provider:
    'Invoked synchronously by the custom-resource provider framework during a deployment: a failure fails and ' +
    'rolls back that deployment, where it is seen; there is no event to replay.',
  iot:
    'Invoked asynchronously by its IoT rule, with an on-failure destination instead (configureAsyncInvoke, its ' +
    "Failures queue, which alarms): the destination's record keeps the event with the error, a DLQ would not.",
  'iot-authorizer':
    'An IoT Core custom authorizer, invoked synchronously on each device connection and refresh: a failure refuses ' +
    "that connection, which the device retries, and raises the function's error alarm; there is no event to keep.",
  schedule:
    'Invoked asynchronously by an EventBridge schedule: the event carries no work to replay, the next run ' +
    "continues the backlog. A failed run raises the function's error alarm; events the rule cannot deliver go " +
    "to the schedule's dead-letter queue.",
};

/** Acknowledges Serverless-LambdaDLQ on a function whose kind of invocation leaves nothing for a DLQ to keep. */
export const acknowledgeNoDeadLetterTarget = (fn: IConstruct, invocation: Invocation): void =>
  Validations.of(fn).acknowledge({ id: 'Serverless-LambdaDLQ', reason: NO_DEAD_LETTER_TARGET[invocation] });

/**
 * Acknowledges what the Serverless pack reports on a dead-letter queue: it has no redrive policy of its own (its
 * messages would only move on to another queue). `standalone`: no other queue's redrive policy names it (a function's
 * or a rule's failure destination), which AwsSolutions-SQS3 does not recognise as a dead-letter queue.
 */
export const acknowledgeDeadLetterQueue = (queue: IConstruct, of: string, options: { standalone: boolean }): void => {
  Validations.of(queue).acknowledge({
    id: 'Serverless-SQSRedrivePolicy',
    reason:
      `The dead-letter queue of ${of}: failed messages end here, kept 14 days, for someone to look at and ` +
      'redrive (its alarm fires on the first). A redrive policy of its own would only move them on to another queue.',
  });
  if (options.standalone) {
    Validations.of(queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: `This queue is itself the dead-letter destination of ${of}; no queue redrives into it.`,
    });
  }
};

/** A Serverless-pack rule that CDK's own deploy-time functions (custom-resource handlers) cannot follow. */
type CdkFunctionRule = 'LambdaDLQ' | 'LambdaTracing' | 'LambdaDefaultMemorySize';

/**
 * Acknowledges Serverless-pack findings on a function aws-cdk-lib creates and owns (`what` names it): the construct
 * offers no setting for them, and the function only runs during deployments.
 */
export const acknowledgeCdkDeployFunction = (fn: IConstruct, what: string, rules: readonly CdkFunctionRule[]): void => {
  const reasons: Record<CdkFunctionRule, string> = {
    LambdaDLQ:
      `${what}, run by CloudFormation for a custom resource: a failure is reported to CloudFormation, which fails ` +
      'and rolls back the deployment; a queued copy of the request could not be replayed.',
    LambdaTracing:
      `${what}: the construct offers no tracing setting, and it runs only during deployments, each call logged ` +
      'in its own log group under the environment retention.',
    LambdaDefaultMemorySize:
      `${what}: the construct offers no memory setting; at Lambda's default it only relays one CloudFormation ` +
      'request to the hook function and its answer back.',
  };
  Validations.of(fn).acknowledge(...rules.map((rule) => ({ id: `Serverless-${rule}`, reason: reasons[rule] })));
};

/** The singleton function behind every AwsCustomResource of `stack`; fails the synth when the stack has none. */
export const awsCustomResourceProvider = (stack: Stack): IConstruct => {
  const provider = stack.node.tryFindChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replaceAll('-', '')}`);
  if (!provider) throw new Error(`No AwsCustomResource provider in ${stack.stackName}`);
  return provider;
};
