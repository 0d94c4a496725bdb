import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Effect, type IRole, Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CfnPolicy } from 'aws-cdk-lib/aws-iot';
import type { Construct } from 'constructs';
import type { EnvironmentSettings } from '../definitions/environments';
import { findingArnPrefix } from './nag-findings';

/** Spec §9: the IoT policy the web app attaches to a signed-in user's identity. */
export const REALTIME_POLICY_NAME = 'IoTPolicyForCognito';

/** IoT Core's policy variable for the caller's Cognito identity id, resolved by IoT (and IAM) per connection. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a policy variable that AWS resolves, not JavaScript
const IDENTITY = '${cognito-identity.amazonaws.com:sub}';

/**
 * The topics a browser may read: `{env}/identities/{identityId}/…`. A user receives only what the backend
 * publishes to their own identity's topics; device data reaches them there after the API has checked the
 * spec's device, organization and campaign relations, which no IoT policy can express.
 */
export const realtimeTopicRoot = (env: string): string => `${env}/identities/${IDENTITY}`;

/** Props of the {@link RealtimeStack}. */
export interface RealtimeStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** The identity pool's role for signed-in users. */
  authenticatedRole: IRole;
}

/**
 * Realtime access for browsers: the IoT policy a user's identity gets, and the matching IAM permissions of the
 * identity pool's role (IoT grants a Cognito identity only what both allow).
 */
export class RealtimeStack extends Stack {
  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
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
  }
}
