import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Aws, Duration, Stack, Stage, Validations } from 'aws-cdk-lib';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Alias, Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { metricNamespace } from '../definitions/alarms';
import { findingArnPrefix } from '../stacks/nag-findings';
import { type BundleSettings, cdkBundling } from './lambda-bundling';
import type { LogSettings } from './log-retention';

/**
 * CDK falls back to Docker when it cannot find esbuild. This project never bundles in Docker, so a missing
 * esbuild is a setup error to report, not a reason to pull an image.
 */
const assertLocalEsbuild = (projectRoot: string): void => {
  try {
    createRequire(join(projectRoot, 'package.json')).resolve('esbuild/package.json');
  } catch {
    throw new Error(
      `esbuild is not installed under ${projectRoot}: run \`npm ci\`. Lambda bundling never uses Docker.`,
    );
  }
};

/** Props of a {@link ServiceFunction}. */
/** Item reads only: no stream actions (no table has a stream). */
const TABLE_READ_ACTIONS = [
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:Scan',
] as const;
const TABLE_WRITE_ACTIONS = [
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
] as const;

/** The alias every trigger invokes; CodeDeploy moves it from version to version (infra/services/gradual-deployment.ts). */
export const LIVE_ALIAS = 'live';

export interface ServiceFunctionProps {
  /** Absolute path of the handler module; it exports `handler`. */
  entry: string;
  /** Folder holding `package.json` and `package-lock.json`; bundling runs there. */
  projectRoot: string;
  /** Shown in the Lambda console. */
  description: string;
  /** The service area it belongs to: the `service` of every log line and metric (POWERTOOLS_SERVICE_NAME). */
  service: string;
  /** The environment, whose namespace its metrics go to (POWERTOOLS_METRICS_NAMESPACE). */
  envName: string;
  /** @default 1024 (Lambda's CPU share grows with memory, which shortens cold starts) */
  memorySize?: number;
  /** @default 10 seconds (well inside API Gateway's 29-second integration limit) */
  timeout?: Duration;
  /** The environment's log retention and removal policy (logSettings): required, so no function escapes it. */
  logs: LogSettings;
  /** What the environment puts in its bundles: whether they trace SDK calls (the environment's `traceSdkCalls`). */
  bundle: BundleSettings;
}

/**
 * A Node.js Lambda with the project's defaults written once: Node.js 22 on ARM, an ESM bundle built by the
 * local esbuild, X-Ray tracing, its own log group, and a role that holds nothing but what is granted to it.
 */
export class ServiceFunction extends Construct {
  /** The underlying function. */
  readonly lambda: NodejsFunction;
  /**
   * The `live` alias on the function's current version: what API Gateway, the event sources, IoT rules, schedules
   * and Cognito invoke, so a deployment can shift traffic to a new version gradually and back.
   */
  readonly alias: Alias;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    assertLocalEsbuild(props.projectRoot);

    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logs.retention,
      removalPolicy: props.logs.removalPolicy,
    });
    // An explicit role instead of the default one, which carries the AWS-managed basic execution policy
    // (write to any log group in the account); this one may write to its own log group only.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.description}`,
    });
    logGroup.grantWrite(role);

    this.lambda = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: {
        POWERTOOLS_SERVICE_NAME: props.service,
        POWERTOOLS_METRICS_NAMESPACE: metricNamespace(props.envName),
        // What the bundle holds (its Tracer or none), shown where the function's settings are read.
        POWERTOOLS_TRACE_ENABLED: String(props.bundle.traceSdkCalls),
      },
      bundling: cdkBundling(
        props.projectRoot,
        join(Stage.of(this)!.outdir, 'source-maps', this.node.path),
        props.bundle,
      ),
    });

    this.alias = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.lambda.currentVersion });

    const defaultPolicy = role.node.tryFindChild('DefaultPolicy');
    if (defaultPolicy) {
      Validations.of(defaultPolicy).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Only the X-Ray statement that active tracing adds: xray:PutTraceSegments and xray:PutTelemetryRecords ' +
          'support no resource-level permissions. Table, bucket and queue grants name their resources.',
      });
    }
    Validations.of(this.lambda).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to Node.js 22 on purpose: the runtime and the esbuild target (node22) move together in one reviewed ' +
        'change, not whenever a newer runtime appears. Node.js 22 is a supported Lambda runtime.',
    });
    Validations.of(this.lambda).acknowledge({
      id: 'Serverless-LambdaLatestVersion',
      reason:
        'Node.js 22 on purpose, as for AwsSolutions-L1: the runtime and the esbuild target (node22) move together in ' +
        'one reviewed change. Node.js 22 is a supported Lambda runtime.',
    });
  }

  /**
   * Lets the function read and write the table's items and query the named indexes, and tells it the
   * table's name through `envVar`.
   */
  readWriteTable(table: ITable, envVar: string, indexes: readonly string[] = []): void {
    this.grantTable(table, [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS], indexes);
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /** Lets the function read the table's items and query the named indexes, and tells it the table's name. */
  readTable(table: ITable, envVar: string, indexes: readonly string[] = []): void {
    this.grantTable(table, TABLE_READ_ACTIONS, indexes);
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /**
   * Lets the function read the table's items by key and nothing else (GetItem, BatchGetItem: no Query, no Scan), and
   * tells it the table's name: the system area's item look-up.
   */
  readTableByKey(table: ITable, envVar: string): void {
    this.grantTable(table, ['dynamodb:BatchGetItem', 'dynamodb:GetItem'], []);
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /**
   * Lets the function add items to the table and nothing else: PutItem, no read, update or delete (the audit log,
   * whose writer makes every put conditional on the item not existing). Tells it the table's name through `envVar`.
   */
  appendToTable(table: ITable, envVar: string): void {
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn] }));
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /** Lets the function Query the table and the named indexes, and nothing else (no Get, Scan or write). */
  queryTable(table: ITable, envVar: string, indexes: readonly string[]): void {
    this.grantTable(table, ['dynamodb:Query'], indexes);
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /**
   * Lets the function read only these attributes of the table's items by key (GetItem, BatchGetItem with a projection
   * that names no other attribute), and tells it the table's name: e.g. a staff member's e-mail for the audit log,
   * without the rest of their record.
   */
  readAttributes(table: ITable, envVar: string, attributes: readonly string[]): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...attributes] },
          StringEqualsIfExists: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
        },
      }),
    );
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  /**
   * Lets the function update only these attributes of the table's items (UpdateItem whose expressions name no other
   * attribute, returning nothing of the rest), and tells it the table's name: a credential's "last used".
   */
  updateAttributes(table: ITable, envVar: string, attributes: readonly string[]): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...attributes] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
        },
      }),
    );
    this.lambda.addEnvironment(envVar, table.tableName);
  }

  // CDK's own table grants name `{table}/index/*`; naming each index keeps the policy free of wildcards.
  private grantTable(table: ITable, actions: readonly string[], indexes: readonly string[]): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: [...actions],
        resources: [table.tableArn, ...indexes.map((index) => `${table.tableArn}/index/${index}`)],
      }),
    );
  }

  /**
   * Lets the function read and write the objects of the bucket named `bucketName`, and tells it the name
   * through `envVar`. The ARN is spelled from the name (bucket names are fixed per environment, spec §9), so
   * the grant needs no cross-stack reference and cdk-nag can be told exactly which wildcard it allows.
   */
  readWriteBucket(bucketName: string, envVar: string): void {
    const bucketArn = `arn:${Aws.PARTITION}:s3:::${bucketName}`;
    // CDK's grantReadWrite adds wildcard actions (s3:Abort*, s3:GetObject*, …); these are the ones used.
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: [...OBJECT_ACTIONS], resources: [`${bucketArn}/*`] }));
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }));
    this.lambda.addEnvironment(envVar, bucketName);
    Validations.of(this.lambda.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketName}/*]`,
      reason: "Any object of this one bucket, which holds only what the function's own area writes there.",
    });
  }

  /**
   * Lets the function list the objects of the bucket named `bucketName` and delete them, never read or write one, and
   * tells it the name through `envVar`: the system area evicts the cache files another area writes.
   */
  listAndDeleteObjects(bucketName: string, envVar: string): void {
    const bucketArn = `arn:${Aws.PARTITION}:s3:::${bucketName}`;
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [`${bucketArn}/*`] }));
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }));
    this.lambda.addEnvironment(envVar, bucketName);
    Validations.of(this.lambda.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketName}/*]`,
      reason: 'Deletes any object of this one bucket (the cache files staff evict); it may not read or write one.',
    });
  }

  /**
   * An archive: the function may write new objects (whole or in parts, and abort an unfinished upload) and read them
   * and their versions, but never delete one. In a versioned bucket an overwrite keeps the earlier version, so nothing
   * the function does can destroy what the bucket holds.
   */
  archiveBucket(bucketName: string, envVar: string): void {
    this.grantObjects(
      bucketName,
      envVar,
      ARCHIVE_ACTIONS,
      "Any object of this one bucket, which holds only what the function's own area writes there; it may not delete.",
    );
  }

  /** Lets the function read the bucket's objects and their versions (e.g. to sign a GET), nothing else. */
  readBucket(bucketName: string, envVar: string): void {
    this.grantObjects(
      bucketName,
      envVar,
      OBJECT_READ_ACTIONS,
      'Reads (GetObject, GetObjectVersion) any object of this one bucket, to sign a GET; no write, delete or listing.',
    );
  }

  private grantObjects(bucketName: string, envVar: string, actions: readonly string[], reason: string): void {
    const bucketArn = `arn:${Aws.PARTITION}:s3:::${bucketName}`;
    this.lambda.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [`${bucketArn}/*`] }));
    this.lambda.addEnvironment(envVar, bucketName);
    Validations.of(this.lambda.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${bucketName}/*]`,
      reason,
    });
  }

  /** Lets the function send messages to the queue, and tells it the queue's URL through `envVar`. */
  sendMessages(queue: IQueue, envVar: string): void {
    queue.grantSendMessages(this.lambda);
    this.lambda.addEnvironment(envVar, queue.queueUrl);
  }

  /**
   * Lets the function publish to the MQTT topics below `topicPrefix` (ending in `/`) and nowhere else, through
   * the account's IoT data endpoint (`dataEndpoint`, a host name), which the SDK's IoT data-plane client reads
   * from AWS_ENDPOINT_URL_IOT_DATA_PLANE.
   */
  publishIotTopics(topicPrefix: string, dataEndpoint: string): void {
    const stack = Stack.of(this);
    const topics = `topic/${topicPrefix}*`;
    this.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['iot:Publish'],
        resources: [stack.formatArn({ service: 'iot', resource: topics })],
      }),
    );
    this.lambda.addEnvironment('AWS_ENDPOINT_URL_IOT_DATA_PLANE', `https://${dataEndpoint}`);
    Validations.of(this.lambda.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${findingArnPrefix(stack, 'iot')}:${topics}]`,
      reason:
        `Any topic below ${topicPrefix}: the live view's per-identity topics, which only the backend writes. ` +
        'Devices publish under devices/, which this grant does not reach.',
    });
  }

  /**
   * Lets the function attach and detach IoT policies to callers' Cognito identities and look up identity ids in one
   * identity pool, and tells it the pool's id (IDENTITY_POOL_ID). Which policy is fixed in code (REALTIME_POLICY_NAME).
   *
   * The service authorization reference gives iot:AttachPolicy and iot:DetachPolicy two resource types, `cert` and
   * `thinggroup`, and none for a Cognito identity or for the policy: a statement naming the policy's ARN matches no
   * request and is refused, so the resource can only be `*` (docs/decisions/026-least-privilege-and-data-protection.md).
   */
  attachIotPolicy(identityPool: { id: string; arn: string }): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['iot:AttachPolicy', 'iot:DetachPolicy'], resources: ['*'] }),
    );
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['cognito-identity:GetId'], resources: [identityPool.arn] }),
    );
    this.lambda.addEnvironment('IDENTITY_POOL_ID', identityPool.id);
    Validations.of(this.lambda.role!.node.findChild('DefaultPolicy')).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray (see above), and iot:AttachPolicy/DetachPolicy, which have no resource type for a Cognito-identity ' +
        'target (service authorization reference: cert and thinggroup only). Only the live routes call them, with the ' +
        "realtime policy's name fixed in code and the caller's own identity id found through GetId.",
    });
  }

  /** Lets the function run the identity admin operations the users area needs on this pool only (USER_POOL_ID). */
  /** Reads who is in the pool's groups (an audience `role:roleName=…`), and nothing else of the pool. */
  listUserPoolGroups(userPool: IUserPool): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['cognito-idp:ListUsersInGroup'], resources: [userPool.userPoolArn] }),
    );
    this.lambda.addEnvironment('USER_POOL_ID', userPool.userPoolId);
  }

  administerUserPool(userPool: IUserPool): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: [...USER_POOL_ADMIN_ACTIONS], resources: [userPool.userPoolArn] }),
    );
    this.lambda.addEnvironment('USER_POOL_ID', userPool.userPoolId);
  }

  /**
   * Lets the function read the Stripe secret key from this one secret, and tells it the secret's ARN through
   * `envVar`: the key itself is read at cold start and never sits in the function's configuration.
   */
  readStripeSecretKey(secret: ISecret, envVar: string): void {
    // GetSecretValue only: CDK's grantRead adds DescribeSecret, which the function does not call.
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }),
    );
    this.lambda.addEnvironment(envVar, secret.secretArn);
  }

  /**
   * Lets the function seal and open secrets with one KMS key (Encrypt and Decrypt on it, nothing else: no key
   * management, no data keys), and tells it the key's ARN through `envVar`.
   */
  sealWithKey(key: IKey, envVar: string): void {
    this.lambda.addToRolePolicy(
      new PolicyStatement({ actions: ['kms:Encrypt', 'kms:Decrypt'], resources: [key.keyArn] }),
    );
    this.lambda.addEnvironment(envVar, key.keyArn);
  }

  /** Lets the function send e-mail from one SES identity only, as `from` (MAIL_FROM). */
  sendMail(identityArn: string, from: string): void {
    // Only from the platform's own sender address on its own identity: a bug cannot send as anyone else.
    this.lambda.addToRolePolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [identityArn],
        conditions: { StringEquals: { 'ses:FromAddress': from } },
      }),
    );
    this.lambda.addEnvironment('MAIL_FROM', from);
  }
}

const OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'] as const;
const OBJECT_READ_ACTIONS = ['s3:GetObject', 's3:GetObjectVersion'] as const;
// AbortMultipartUpload: a failed build gives up its unfinished upload rather than leave its parts behind.
const ARCHIVE_ACTIONS = [...OBJECT_READ_ACTIONS, 's3:PutObject', 's3:AbortMultipartUpload'] as const;

/** What the users area does to the pool; no pool configuration, no user-pool-wide deletion. */
const USER_POOL_ADMIN_ACTIONS = [
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminDeleteUserAttributes',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminListUserAuthEvents',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminResetUserPassword',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:GetGroup',
  'cognito-idp:ListGroups',
  'cognito-idp:ListUsers',
  'cognito-idp:ListUsersInGroup',
] as const;
