import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Effect, type IRole, Policy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy } from 'aws-cdk-lib/aws-iot';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { REALTIME_POLICY_NAME } from '../../shared/iot/realtime';
import { DEVICE_TOPICS } from '../../shared/iot/topics';
import type { EnvironmentSettings } from '../definitions/environments';
import { logSettings } from '../services/log-retention';
import { acknowledgeCdkDeployFunction, awsCustomResourceProvider, findingArnPrefix } from './nag-findings';

/** Spec §9: the IoT policy attached to a signed-in user's identity (shared/iot/realtime.ts, beside the topics). */
export { REALTIME_POLICY_NAME };

/** IoT Core's policy variable for the caller's Cognito identity id, resolved by IoT (and IAM) per connection. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a policy variable that AWS resolves, not JavaScript
const IDENTITY = '${cognito-identity.amazonaws.com:sub}';

/**
 * The topics a browser may read: `{env}/identities/{identityId}/…`. A user receives only what the backend
 * publishes to their own identity's topics; device data reaches them there after the API has checked the
 * spec's device, organization and campaign relations, which no IoT policy can express.
 */
export const realtimeTopicRoot = (env: string): string => `${env}/identities/${IDENTITY}`;

/** The topics below which the backend publishes to users' identities (the prefix of {@link realtimeTopicRoot}). */
export const realtimeTopicPrefix = (env: string): string => `${env}/identities/`;

/** IoT Core's policy variable for the connected device's thing name, which is its device id. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a policy variable that AWS resolves, not JavaScript
const THING = '${iot:Connection.Thing.ThingName}';

/** The IoT policy of the environment's devices (things named by their device id); one per environment. */
export const devicePolicyName = (env: string): string => `device-data-${env}-devices`;

/** The MQTT topics a device publishes to, under its own id (the data-ingress rules read `devices/+/…`). */
export { DEVICE_TOPICS };

/** Props of the {@link RealtimeStack}. */
export interface RealtimeStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** The identity pool's role for signed-in users. */
  authenticatedRole: IRole;
}

/**
 * IoT Core for the environment. Realtime access for browsers: the IoT policy a user's identity gets, and the
 * matching IAM permissions of the identity pool's role (IoT grants a Cognito identity only what both allow).
 * Devices: the policy their certificates get. And the account's data endpoint, where the backend publishes.
 */
export class RealtimeStack extends Stack {
  /** The account's IoT data endpoint host (iot:Data-ATS) in this region, where the backend publishes. */
  readonly dataEndpoint: string;
  /** The topics the backend publishes to for signed-in users (`{env}/identities/`). */
  readonly topicPrefix: string;

  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
    const env = props.settings.name;
    this.topicPrefix = realtimeTopicPrefix(env);
    const iotArn = (resource: string) => this.formatArn({ service: 'iot', resource });
    const topicRoot = realtimeTopicRoot(props.settings.name);

    // The client id must be the identity id, so one identity cannot take over (disconnect) another's session.
    const connect = new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['iot:Connect'],
      resources: [iotArn(`client/${IDENTITY}`)],
    });
    const subscribe = new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['iot:Subscribe'],
      resources: [iotArn(`topicfilter/${topicRoot}/*`)],
    });
    const receive = new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['iot:Receive'],
      resources: [iotArn(`topic/${topicRoot}/*`)],
    });
    const statements = [connect, subscribe, receive];

    new CfnPolicy(this, 'IoTPolicyForCognito', {
      policyName: REALTIME_POLICY_NAME,
      policyDocument: { Version: '2012-10-17', Statement: statements.map((s) => s.toStatementJson()) },
    });

    const rolePolicy = new Policy(this, 'AuthenticatedRealtimePolicy', {
      roles: [props.authenticatedRole],
      statements,
    });
    Validations.of(rolePolicy).acknowledge(
      ...[`topicfilter/${topicRoot}/*`, `topic/${topicRoot}/*`].map((resource) => ({
        id: `AwsSolutions-IAM5[Resource::${findingArnPrefix(this, 'iot')}:${resource.replace(IDENTITY, '<cognito-identity.amazonaws.com:sub>')}]`,
        reason:
          "The wildcard lies below the caller's own identity id: a user may read any topic under " +
          `${props.settings.name}/identities/{their identity}/ and nothing else.`,
      })),
    );

    // A device connects as its own thing (the thing name is the device id) with a certificate attached to that
    // thing, and publishes only under its own id: one device cannot send readings for another. Registering
    // things and certificates is an operator's step (docs/sensor-data.md, "Cloud wiring").
    const thingAttached = { Bool: { 'iot:Connection.Thing.IsAttached': 'true' } };
    new CfnPolicy(this, 'DevicePolicy', {
      policyName: devicePolicyName(env),
      policyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: 'iot:Connect', Resource: iotArn(`client/${THING}`), Condition: thingAttached },
          {
            Effect: 'Allow',
            Action: 'iot:Publish',
            Resource: DEVICE_TOPICS.map((topic) => iotArn(`topic/devices/${THING}/${topic}`)),
            Condition: thingAttached,
          },
        ],
      },
    });

    // The data endpoint is the account's own host name, known only to IoT Core: asked once per environment
    // here, handed to the functions that publish (AWS_ENDPOINT_URL_IOT_DATA_PLANE).
    const logs = logSettings(props.settings);
    const endpointLogs = new LogGroup(this, 'IotDataEndpointLogs', {
      retention: logs.retention,
      removalPolicy: logs.removalPolicy,
    });
    // Its own role rather than CDK's default, which carries the AWS-managed basic execution policy (any log group).
    const endpointRole = new Role(this, 'IotDataEndpointRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Asks IoT Core for the account data endpoint at deploy time',
    });
    endpointLogs.grantWrite(endpointRole);
    const endpoint = new AwsCustomResource(this, 'IotDataEndpoint', {
      onUpdate: {
        service: 'Iot',
        action: 'describeEndpoint',
        parameters: { endpointType: 'iot:Data-ATS' },
        physicalResourceId: PhysicalResourceId.of(`iot-data-ats-endpoint-${env}`),
      },
      // DescribeEndpoint supports no resource-level permissions.
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
      // The Lambda runtime's SDK answers DescribeEndpoint; installing the newest one would need npm at deploy time.
      installLatestAwsSdk: false,
      // Lambda's smallest size, written out: one SDK call per deployment, what it has always run with.
      memorySize: 128,
      logGroup: endpointLogs,
      role: endpointRole,
    });
    acknowledgeCdkDeployFunction(awsCustomResourceProvider(this), "CDK's AwsCustomResource function", [
      'LambdaDLQ',
      'LambdaTracing',
    ]);
    Validations.of(endpoint).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'iot:DescribeEndpoint, its only action, supports no resource-level permissions.',
    });
    this.dataEndpoint = endpoint.getResponseField('endpointAddress');
    new CfnOutput(this, 'IotDataEndpointAddress', { value: this.dataEndpoint });
  }
}
