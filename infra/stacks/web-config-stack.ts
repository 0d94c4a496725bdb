import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource, type AwsSdkCall, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import type { RuntimeConfig } from '../../shared/config/runtime-config';
import { deviceAuthorizerName, readingsRuleName } from '../../shared/iot/topics';
import type { EnvironmentSettings } from '../definitions/environments';
import { RUNTIME_CONFIG_KEY, WEB_CACHE_CONTROL } from '../definitions/web';
import { logSettings } from '../services/log-retention';
import type { HostedSignIn } from './auth-stack';
import { acknowledgeCdkDeployFunction, awsCustomResourceProvider } from './nag-findings';

/** Props of the {@link WebConfigStack}. */
export interface WebConfigStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** The web stack's site bucket, which the distribution serves. */
  siteBucket: IBucket;
  /** Base URL of each service area's API. */
  apiBaseUrls: Record<string, string>;
  userPool: IUserPool;
  webClient: IUserPoolClient;
  /** The hosted sign-in's domain, URLs and providers (the auth stack's). */
  hostedSignIn: HostedSignIn;
  /** The identity pool whose credentials sign the live view's IoT connection. */
  identityPoolId: string;
  /** The account's IoT Core data endpoint (`…-ats.iot.{region}.amazonaws.com`). */
  realtimeEndpoint: string;
  /** The real-user monitor the web app reports to (the auth stack's). */
  analytics: NonNullable<RuntimeConfig['analytics']>;
}

/**
 * Publishes `/runtime-config.json`, the one document through which the web app learns its environment.
 * Its own stack because it needs the APIs, and the APIs need the web stack's origin for CORS.
 */
export class WebConfigStack extends Stack {
  constructor(scope: Construct, id: string, props: WebConfigStackProps) {
    super(scope, id, props);
    const { siteBucket } = props;
    const logs = logSettings(props.settings);

    const config = {
      env: props.settings.name,
      region: this.region,
      apiBaseUrls: props.apiBaseUrls,
      auth: {
        userPoolId: props.userPool.userPoolId,
        userPoolClientId: props.webClient.userPoolClientId,
        authFlowType: 'USER_SRP_AUTH',
        identityPoolId: props.identityPoolId,
        oauth: {
          origin: `https://${props.hostedSignIn.domain}`,
          scopes: props.hostedSignIn.scopes,
          // Every URL the client allows: Amplify takes the one on the page's own origin (a developers'
          // environment also lists the local dev server's).
          redirectSignIn: props.hostedSignIn.callbackUrls,
          redirectSignOut: props.hostedSignIn.signOutUrls,
          providers: props.hostedSignIn.providers,
        },
        rememberedDevices: props.settings.rememberedDevices,
      },
      realtimeUrl: `wss://${props.realtimeEndpoint}/mqtt`,
      // What the device page tells a person to configure: the custom authorizer takes user name and password on port
      // 443 with the ALPN protocol `mqtt` (decision 031); readings go to the readings rule's Basic Ingest topic (043).
      deviceIngress: {
        mqttUrl: `mqtts://${props.realtimeEndpoint}:443`,
        mqttAlpn: 'mqtt',
        mqttUserNameSuffix: `?x-amz-customauthorizer-name=${deviceAuthorizerName(props.settings.name)}`,
        readingsRule: readingsRuleName(props.settings.name),
      },
      // Spec §9: session and token cookies are same-site strict and secure in every deployed environment.
      cookies: { secure: true, sameSite: 'strict' },
      analytics: props.analytics,
    } satisfies RuntimeConfig;

    // One PutObject instead of a BucketDeployment: the writer may touch this one key and nothing else of the
    // site (a BucketDeployment's handler may read, write and delete the whole bucket). With `no-cache`,
    // CloudFront keeps the object for its minimum TTL (1 s) only, so no invalidation permission is needed.
    const put: AwsSdkCall = {
      service: 'S3',
      action: 'putObject',
      parameters: {
        Bucket: siteBucket.bucketName,
        Key: RUNTIME_CONFIG_KEY,
        Body: this.toJsonString(config),
        ContentType: 'application/json',
        CacheControl: WEB_CACHE_CONTROL.other,
      },
      physicalResourceId: PhysicalResourceId.of(RUNTIME_CONFIG_KEY),
      outputPaths: ['ETag'],
    };
    new AwsCustomResource(this, 'RuntimeConfig', {
      onCreate: put,
      onUpdate: put,
      onDelete: {
        service: 'S3',
        action: 'deleteObject',
        parameters: { Bucket: siteBucket.bucketName, Key: RUNTIME_CONFIG_KEY },
      },
      policy: {
        statements: [
          new PolicyStatement({
            actions: ['s3:PutObject', 's3:DeleteObject'],
            resources: [siteBucket.arnForObjects(RUNTIME_CONFIG_KEY)],
          }),
        ],
      },
      installLatestAwsSdk: false,
      // Lambda's smallest size, written out: one S3 put per deployment, what it has always run with.
      memorySize: 128,
      // Without a group of its own, CDK's provider keeps its logs two years, whatever the environment's policy.
      logGroup: new LogGroup(this, 'RuntimeConfigLogs', {
        retention: logs.retention,
        removalPolicy: logs.removalPolicy,
      }),
    });

    const provider = awsCustomResourceProvider(this);
    Validations.of(provider).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "CDK's own custom-resource provider; the managed policy only lets it write its logs. Its S3 " +
        'permission is the inline PutObject/DeleteObject on runtime-config.json alone.',
    });
    acknowledgeCdkDeployFunction(provider, "CDK's AwsCustomResource function", ['LambdaDLQ', 'LambdaTracing']);
  }
}
