import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IAlarm, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type ILambdaDeploymentConfig,
  LambdaApplication,
  LambdaDeploymentConfig,
  LambdaDeploymentGroup,
} from 'aws-cdk-lib/aws-codedeploy';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { ALARM_THRESHOLDS, type AlarmThreshold } from '../definitions/alarms';
import type { DeploymentStrategy, EnvironmentSettings } from '../definitions/environments';
import { unexpectedErrors } from './function-errors';
import type { ServiceFunction } from './service-function';

/** CodeDeploy's predefined configuration for each strategy an environment may name (environments.ts `deployment`). */
export const DEPLOYMENT_CONFIGS: Record<DeploymentStrategy, ILambdaDeploymentConfig> = {
  CANARY_10PERCENT_5MINUTES: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  LINEAR_10PERCENT_EVERY_1MINUTE: LambdaDeploymentConfig.LINEAR_10PERCENT_EVERY_1MINUTE,
  ALL_AT_ONCE: LambdaDeploymentConfig.ALL_AT_ONCE,
};

/** The alarm name CodeDeploy watches for a function: `device-data-{env}-{id}-deploy-errors`. */
export const deployAlarmName = (env: string, id: string): string => `device-data-${env}-${id}-deploy-errors`;

/**
 * Shifts each function's `live` alias to a new version through CodeDeploy (docs/decisions/032-edge-and-gradual-deploys.md):
 * the environment's strategy (a canary in preview and prod, all at once elsewhere), and the alias back on the old
 * version when an alarm fires during the shift. The alarms live here, beside the function, not in the operations
 * stack: that stack reads every other one, so a deployment group there or an alarm reference back would close a cycle.
 * They read the same thresholds (ALARM_THRESHOLDS) as the operations stack's alarms, and page no one (those do).
 *
 * One CodeDeploy application and one service role per stack, one deployment group per function.
 */
export class GradualDeployments extends Construct {
  private readonly application: LambdaApplication;
  private readonly role: Role;
  private readonly settings: EnvironmentSettings;

  constructor(scope: Construct, id: string, props: { settings: EnvironmentSettings; description: string }) {
    super(scope, id);
    this.settings = props.settings;
    this.application = new LambdaApplication(this, 'Application');
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: `Lets CodeDeploy shift the live aliases of ${props.description}`,
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited')],
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        "AWS's own policy for CodeDeploy on Lambda: it reads and updates aliases, reads alarms (no resource-level " +
        'permission exists for cloudwatch:DescribeAlarms) and invokes only functions named CodeDeployHook_*.',
    });
  }

  /**
   * Deploys `fn`'s live alias gradually, rolled back when its errors (through the alias) reach the operations
   * stack's threshold, or when one of `alarms` fires (e.g. the API's 5xx rate).
   */
  add(id: string, fn: ServiceFunction, extra: { id: string; metric: IMetric; threshold: AlarmThreshold }[] = []) {
    const env = this.settings.name;
    const watch = (alarmId: string, name: string, description: string, metric: IMetric, t: AlarmThreshold): IAlarm =>
      new Alarm(this, alarmId, {
        alarmName: name,
        alarmDescription: description,
        metric,
        threshold: t.threshold,
        evaluationPeriods: t.evaluationPeriods,
        datapointsToAlarm: t.datapoints ?? t.evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    const tErrors = ALARM_THRESHOLDS.functionErrors;
    const alarms = [
      watch(
        `${id}DeployErrors`,
        deployAlarmName(env, id),
        `Rolls back a deployment of ${id}: errors through its live alias (CodeDeploy's rollback alarm; pages no one).`,
        unexpectedErrors(
          id,
          fn.alias.metricErrors({ period: Duration.minutes(tErrors.periodMinutes), statistic: 'Sum' }),
          env,
        ),
        tErrors,
      ),
      ...extra.map((e) =>
        watch(
          `${id}Deploy${e.id}`,
          `device-data-${env}-${id}-deploy-${e.id}`,
          `Rolls back a deployment of ${id} (CodeDeploy's rollback alarm; pages no one).`,
          e.metric,
          e.threshold,
        ),
      ),
    ];
    return new LambdaDeploymentGroup(this, id, {
      application: this.application,
      alias: fn.alias,
      deploymentConfig: DEPLOYMENT_CONFIGS[this.settings.deployment],
      role: this.role,
      alarms,
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
  }
}
