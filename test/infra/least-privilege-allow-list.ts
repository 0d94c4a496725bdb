/**
 * The reviewed exceptions of test/infra/least-privilege.test.ts (docs/decisions/026-least-privilege-and-data-protection.md).
 * Each entry names the roles it covers (by logical id), the actions, and why no narrower grant exists. A grant matching
 * no entry fails the test; an entry matching no grant in prod fails it too, so the list cannot outlive its reasons.
 */
export interface AllowEntry {
  /** Matches the logical id of the role (`{construct}Role{hash}`, `…ServiceRole{hash}`). */
  role: RegExp;
  actions: string[];
  reason: string;
}

/** The one area whose API Lambda hands out the realtime policy (SERVICE_RESOURCES.realtimePolicy). */
const LIVE_VIEW_API_ROLE = /^SensorDataApiHandlerRole[0-9A-F]{8}$/;

/** CDK's BucketDeployment handler role, created by aws-cdk-lib in the web stack. */
const BUCKET_DEPLOYMENT_ROLE = /^CustomCDKBucketDeployment[0-9A-F]{32}512MiBServiceRole[0-9A-F]{8}$/;

/** Grants on `Resource: "*"`. */
export const ANY_RESOURCE_ALLOWED: AllowEntry[] = [
  {
    // Every ServiceFunction traces through X-Ray (active tracing).
    role: /Role[0-9A-F]{8}$/,
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    reason: 'X-Ray defines no resource type for these actions: the service authorization reference lists none.',
  },
  {
    role: LIVE_VIEW_API_ROLE,
    actions: ['iot:AttachPolicy', 'iot:DetachPolicy'],
    reason:
      'The reference gives these actions the resource types cert and thinggroup only; the target here is a Cognito ' +
      'identity, which is neither, so a narrower statement matches no request. Only the live routes call them, with ' +
      "the policy name fixed in code and the caller's own identity id from GetId.",
  },
  {
    role: /^IotDataEndpointRole[0-9A-F]{8}$/,
    actions: ['iot:DescribeEndpoint'],
    reason: 'DescribeEndpoint has no resource type; asked once per deployment for the account data endpoint.',
  },
  {
    role: BUCKET_DEPLOYMENT_ROLE,
    actions: ['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation'],
    reason:
      "Written by CDK's BucketDeployment, not by this project: it invalidates the distribution after a deploy. " +
      'Narrowing it would mean replacing the construct; the role runs only during a deployment.',
  },
];

/**
 * Actions with a wildcard in their name. Project code writes every action out; only CDK's own handlers keep the
 * prefix patterns its grant helpers write, each bound to named buckets. `*` and `service:*` are never allowed.
 */
export const ACTION_PATTERNS_ALLOWED: AllowEntry[] = [
  {
    role: BUCKET_DEPLOYMENT_ROLE,
    actions: ['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:Abort*', 's3:DeleteObject*'],
    reason:
      "CDK's BucketDeployment grants on the asset bucket and the site bucket (copy, prune): aws-cdk-lib writes these " +
      'patterns and offers no way to narrow them; both resources are named.',
  },
];

/** AWS managed policies a role may carry (their statements are not in the templates, so each is reviewed here). */
export const MANAGED_POLICIES_ALLOWED: AllowEntry[] = [
  {
    // CDK's own handlers: the auto-delete provider, the BucketDeployment handler, the AwsCustomResource provider, the
    // provider framework of a deploy hook.
    role: /^(CustomS3AutoDeleteObjectsCustomResourceProviderRole|CustomCDKBucketDeployment[0-9A-F]{32}512MiBServiceRole|AWS[0-9a-f]{32}ServiceRole|[A-Za-z]+ProviderframeworkonEventServiceRole)[0-9A-F]{8}$/,
    actions: ['AWSLambdaBasicExecutionRole'],
    reason: "aws-cdk-lib's handlers log through AWS's basic execution policy (write logs); they take no role of ours.",
  },
  {
    // One per area stack and one in the auth stack (infra/services/gradual-deployment.ts).
    role: /^LiveDeploymentsRole[0-9A-F]{8}$/,
    actions: ['AWSCodeDeployRoleForLambdaLimited'],
    reason:
      "CodeDeploy's role for shifting the live aliases: AWS's own limited policy (get and update aliases, read " +
      'alarms, which has no resource-level permission, and invoke only CodeDeployHook_* functions). An inline policy ' +
      'naming our aliases would restate it and could be refused by a CodeDeploy change we cannot test without a deploy.',
  },
  {
    role: /^ApiGatewayCloudWatchRole[0-9A-F]{8}$/,
    actions: ['AmazonAPIGatewayPushToCloudWatchLogs'],
    reason:
      "API Gateway's account-wide logging role: the service names the log groups itself, for every API of the account.",
  },
];
