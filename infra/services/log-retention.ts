import { CfnResource, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { EnvironmentSettings } from '../definitions/environments';

/** How long an environment's log groups keep their events, and whether they outlive the stack. */
export interface LogSettings {
  retention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/**
 * The environment's one log policy (EnvironmentSettings.logRetentionDays), for every log group it creates. A number
 * CloudWatch Logs does not accept fails the synth here rather than the deployment.
 */
export const logSettings = (settings: Pick<EnvironmentSettings, 'name' | 'logRetentionDays' | 'retainData'>) => {
  const days = settings.logRetentionDays;
  if (!(Object.values(RetentionDays) as unknown[]).includes(days) || days === RetentionDays.INFINITE) {
    throw new Error(`${settings.name}: logRetentionDays ${days} is not a retention CloudWatch Logs accepts`);
  }
  return {
    retention: days as RetentionDays,
    removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  } satisfies LogSettings;
};

/** The construct id CDK gives the provider of `autoDeleteObjects` in each stack that uses it. */
const AUTO_DELETE_PROVIDER = 'Custom::S3AutoDeleteObjectsCustomResourceProvider';

/**
 * CDK's handler of `autoDeleteObjects` takes no log group: Lambda would write to `/aws/lambda/{name}`, created on its
 * first run and kept forever. This gives the handler a group of ours, with the environment's retention, through its
 * logging configuration. Not by creating `/aws/lambda/{name}` itself: in a deployed environment the handler has run
 * already, that group exists, and CloudFormation would fail to create it. Call it once the stack's buckets exist.
 */
export const keepAutoDeleteLogs = (stack: Stack, logs: LogSettings): void => {
  const provider = stack.node.tryFindChild(AUTO_DELETE_PROVIDER);
  const handler = provider?.node.tryFindChild('Handler');
  if (!(handler instanceof CfnResource)) return;
  const group = new LogGroup(stack, 'AutoDeleteObjectsLogs', {
    retention: logs.retention,
    removalPolicy: logs.removalPolicy,
  });
  // The provider's role carries AWS's basic execution policy, which may write to any log group.
  handler.addPropertyOverride('LoggingConfig', { LogGroup: group.logGroupName });
  handler.node.addDependency(group);
};
