import { join } from 'node:path';
import { CustomResource, Duration, NestedStack, Validations } from 'aws-cdk-lib';
import type { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnAuthorizer, CfnTopicRule } from 'aws-cdk-lib/aws-iot';
import { type CfnFunction, EventSourceMapping, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { FilterPattern, type ILogGroup, LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { TABLES } from '../../functions/_shared/tables';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import { firmwareStatusRuleName, iotRuleName, readingsRuleName } from '../../shared/iot/topics';
import { LOG_EVENTS } from '../../shared/operations/log-events';
import { ALARM_THRESHOLDS, LOG_METRICS, metricNamespace } from '../definitions/alarms';
import type { EnvironmentSettings } from '../definitions/environments';
import { routeThrottlesOf } from '../definitions/route-throttles';
import {
  AUDIT_LOG_ACCESS,
  DEPLOY_HOOKS,
  handlerEntry,
  hasRoutes,
  IOT_AUTHORIZERS,
  IOT_RULES,
  SCHEDULED_JOBS,
  SERVICE_RESOURCES,
  WORKERS,
} from '../definitions/services';
import { QUEUES } from '../definitions/storage';
import { AreaApi } from '../services/area-api';
import { constructId } from '../services/construct-id';
import { GradualDeployments } from '../services/gradual-deployment';
import { logSettings } from '../services/log-retention';
import { ServiceFunction } from '../services/service-function';
import { grantServiceResources, type ServiceResourceRefs } from '../services/service-resources';
import {
  acknowledgeCdkDeployFunction,
  acknowledgeDeadLetterQueue,
  acknowledgeNoDeadLetterTarget,
} from './nag-findings';

/** Props of an {@link AreaStack}. */
export interface AreaStackProps {
  /** The service area this stack holds. */
  area: AreaName;
  settings: EnvironmentSettings;
  /** Folder holding `package.json`, `package-lock.json` and the `functions/` sources. */
  projectRoot: string;
  /** What the area's functions may be granted (SERVICE_RESOURCES names which). */
  refs: ServiceResourceRefs;
  /** The app client whose tokens the area's API accepts. */
  webClient: IUserPoolClient;
  /** Browser origins the area's API answers CORS for. */
  corsOrigins: string[];
  /** The account's API Gateway logging role setting, which the area's stage waits for. */
  apiGatewayAccount: CfnAccount;
  /** The environment's web ACL for its APIs, where it has one (environments.ts `waf`). */
  webAclArn?: string;
}

/** Messages a worker receives per invocation (the SQS event source's batch size). */
export const WORKER_BATCH_SIZE = 10;

/**
 * A worker's timeout: the longest its queue's visibility timeout allows. AWS asks for a visibility timeout of at
 * least six times the function's, so that a message is not handed to a second worker while the first (and its
 * retries within the batch window) still runs.
 */
export const workerTimeout = (visibilityTimeoutSeconds: number): Duration =>
  Duration.seconds(Math.floor(visibilityTimeoutSeconds / 6));

/**
 * The rule's query: the whole message, the topic (the handler reads the device id from it) and the connection's
 * principal (for a device that connected through the custom authorizer, its principal id names the credential, which
 * the handler checks is not revoked: decision 031).
 */
export const iotRuleSql = (topicFilter: string): string =>
  `SELECT *, topic() AS topic, principal() AS principal FROM '${topicFilter}'`;

/** Whether an area's contract defines routes; an area without routes has no API yet. */

/**
 * One service area in its own nested CloudFormation stack: its REST API and Lambda (when the contract has
 * routes), its scheduled jobs, queue workers and IoT rules, each granted exactly what SERVICE_RESOURCES lists for the area. A stack per
 * area keeps every template far below CloudFormation's 500-resource and 1 MB limits as areas are added
 * (docs/decisions/011-one-nested-stack-per-area.md).
 */
export class AreaStack extends NestedStack {
  /** The area's API, when its contract has routes. */
  readonly api?: AreaApi;
  /** Every function of the area (its API's, jobs', hooks', workers', rules'), by construct id: the operations alarms. */
  readonly functions: Record<string, IFunction> = {};
  /**
   * Dead-letter queues outside QUEUES, by construct id: the IoT rules' failure queues (each its function's on-failure
   * destination) and the schedules' dead-letter queues (events a rule could not deliver to its job).
   */
  readonly deadLetterQueues: Record<string, IQueue> = {};
  /** The area's IoT topic rules' names, by construct id. */
  readonly iotRules: Record<string, string> = {};
  /** The area's IoT custom authorizers' names, by construct id. */
  readonly iotAuthorizers: Record<string, string> = {};

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    const { area, settings, refs } = props;
    super(scope, id, {
      description: `device-data ${settings.name}: the ${area} service area`,
      // The templates are read by CloudFormation, not by people (`cdk diff` shows changes); unindented they
      // are about a fifth smaller.
      suppressTemplateIndentation: true,
    });
    const logs = logSettings(settings);
    // Metrics counted from the logs are published beside their log group (a filter lives and goes with it); the
    // operations stack alarms on them by namespace and name, without a reference into this stack.
    const countLogEvents = (
      id: string,
      logGroup: ILogGroup,
      metricName: string,
      pattern: string,
      dimensions?: Record<string, string>,
    ) =>
      new MetricFilter(this, id, {
        logGroup,
        metricNamespace: metricNamespace(settings.name),
        metricName,
        filterPattern: FilterPattern.literal(pattern),
        metricValue: '1',
        ...(dimensions ? { dimensions } : {}),
      });

    // Every function's live alias moves to a new version through CodeDeploy, rolled back on its errors.
    const deployments = new GradualDeployments(this, 'LiveDeployments', {
      settings,
      description: `the ${area} area's functions`,
    });

    if (hasRoutes(area)) {
      // The construct id of the area's API is the one it had in the single API stack, so its resources keep
      // their logical ids inside this template.
      const api = new AreaApi(this, `${constructId(area)}Api`, {
        area: AREAS[area],
        envName: settings.name,
        entry: join(props.projectRoot, handlerEntry(area)),
        projectRoot: props.projectRoot,
        authIssuer: `https://cognito-idp.${this.region}.${this.urlSuffix}/${refs.userPool.userPoolId}`,
        authClientIds: [props.webClient.userPoolClientId],
        corsOrigins: props.corsOrigins,
        logs,
        bundle: settings,
        throttling: settings.apiThrottling,
        routeThrottles: Object.fromEntries(
          Object.entries(routeThrottlesOf(area)).map(([key, throttleClass]) => [
            key,
            settings.routeThrottling[throttleClass],
          ]),
        ),
        ...(settings.apiDomain ? { domain: settings.apiDomain } : {}),
        ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
      });
      // A stage cannot log before the account knows the logging role. Across the nesting, CDK makes this
      // nested stack's resource in the parent depend on the account setting.
      api.restApi.deploymentStage.node.addDependency(props.apiGatewayAccount);
      grantServiceResources(api.handler, SERVICE_RESOURCES[area], refs, {
        sessionCheck: true,
        billing: true,
        liveRoutes: true,
        auditLog: AUDIT_LOG_ACCESS[area],
      });
      this.api = api;
      this.functions[`${constructId(area)}Api`] = api.handler.lambda;
      // The API's 5xx rate too: a version that answers 500 from a caught error does not count as a Lambda error.
      const t5xx = ALARM_THRESHOLDS.api5xxRate;
      deployments.add(`${constructId(area)}Api`, api.handler, [
        {
          id: '5xx',
          metric: new Metric({
            namespace: 'AWS/ApiGateway',
            metricName: '5XXError',
            dimensionsMap: { ApiName: `device-data-${settings.name}-${area}`, Stage: api.stageName },
            statistic: 'Average',
            period: Duration.minutes(t5xx.periodMinutes),
          }),
          threshold: t5xx,
        },
      ]);
      if (SERVICE_RESOURCES[area].billingWebhook) {
        countLogEvents(
          'StripeWebhookRefusals',
          api.handler.lambda.logGroup,
          LOG_METRICS.stripeWebhookRefused,
          `{ $.event = "${LOG_EVENTS.stripeWebhookRefused}" }`,
        );
      }
    }

    // A job lives with its area: it gets the area's grants from the same parameters, and goes with the area.
    for (const job of SCHEDULED_JOBS.filter((j) => j.area === area)) {
      const fn = new ServiceFunction(this, job.name, {
        entry: join(props.projectRoot, job.entry),
        projectRoot: props.projectRoot,
        service: area,
        envName: settings.name,
        description: `the ${job.name} job (${settings.name})`,
        // A job works through its backlog in pages; one run may take minutes, the next run continues.
        timeout: Duration.minutes(5),
        logs,
        bundle: settings,
      });
      this.functions[job.name] = fn.lambda;
      deployments.add(job.name, fn);
      // Jobs get their area's grants but no billing: none calls Stripe (the deletion job builds account deletion only).
      grantServiceResources(fn, SERVICE_RESOURCES[area], refs, { sessionCheck: false, billing: false });
      acknowledgeNoDeadLetterTarget(fn.lambda, 'schedule');
      // An event EventBridge cannot deliver (the invoke permission gone, Lambda refusing the call past the retries)
      // never becomes an invocation, so the function's error alarm cannot see it: it lands here, which alarms.
      const undelivered = new Queue(this, `${job.name}ScheduleDeadLetters`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      acknowledgeDeadLetterQueue(undelivered, `the ${job.name} schedule`, { standalone: true });
      this.deadLetterQueues[`${job.name}ScheduleDeadLetters`] = undelivered;
      new Rule(this, `${job.name}Schedule`, {
        description: `Runs ${job.name} every ${job.everyMinutes} minutes`,
        schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
        targets: [
          new LambdaFunction(fn.alias, {
            retryAttempts: 2,
            // A run older than the interval is superseded by the next one; retrying it longer only doubles up.
            maxEventAge: Duration.minutes(Math.min(job.everyMinutes, 24 * 60)),
            deadLetterQueue: undelivered,
          }),
        ],
      });
    }

    for (const hook of DEPLOY_HOOKS.filter((h) => h.area === area)) {
      const fn = new ServiceFunction(this, hook.name, {
        entry: join(props.projectRoot, hook.entry),
        projectRoot: props.projectRoot,
        service: area,
        envName: settings.name,
        description: `the ${hook.name} deploy hook (${settings.name})`,
        // Lambda's limit; the hook's own budget stops a minute or two before it, recording where it stopped.
        timeout: Duration.minutes(15),
        logs,
        bundle: settings,
      });
      grantServiceResources(fn, SERVICE_RESOURCES[area], refs, { sessionCheck: false, billing: false });
      acknowledgeNoDeadLetterTarget(fn.lambda, 'provider');
      this.functions[hook.name] = fn.lambda;
      const provider = new Provider(this, `${hook.name}Provider`, {
        onEventHandler: fn.lambda,
        logGroup: new LogGroup(this, `${hook.name}ProviderLogs`, {
          retention: logs.retention,
          removalPolicy: logs.removalPolicy,
        }),
      });
      const hookLogicalId = this.resolve((fn.lambda.node.defaultChild as CfnFunction).logicalId) as string;
      Validations.of(provider).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: "CDK's own provider framework; the managed policy only lets it write its logs.",
        },
        {
          id: `AwsSolutions-IAM5[Resource::<${hookLogicalId}.Arn>:*]`,
          reason: "The provider framework may invoke the hook's function and its versions, nothing else.",
        },
      );
      acknowledgeCdkDeployFunction(provider.node.findChild('framework-onEvent'), "CDK's provider framework function", [
        'LambdaDLQ',
        'LambdaTracing',
        'LambdaDefaultMemorySize',
      ]);
      new CustomResource(this, `${hook.name}Run`, {
        serviceToken: provider.serviceToken,
        resourceType: `Custom::${hook.name}`,
        properties: { version: hook.version() },
      });
    }

    for (const worker of WORKERS.filter((w) => w.area === area)) {
      const queue = QUEUES[worker.queue];
      const fn = new ServiceFunction(this, worker.name, {
        entry: join(props.projectRoot, worker.entry),
        projectRoot: props.projectRoot,
        service: area,
        envName: settings.name,
        description: `the ${worker.name} worker (${settings.name})`,
        timeout: workerTimeout(queue.visibilityTimeoutSeconds),
        logs,
        bundle: settings,
      });
      grantServiceResources(fn, SERVICE_RESOURCES[area], refs, { sessionCheck: false, billing: false });
      this.functions[worker.name] = fn.lambda;
      deployments.add(worker.name, fn);
      // Links a worker writes into e-mail that land on its own API (the one-click unsubscribe of RFC 8058).
      if (this.api) fn.lambda.addEnvironment('AREA_API_URL', this.api.url);
      // The chain reports which messages failed (sqs-worker.ts); without reportBatchItemFailures Lambda would
      // ignore that answer and retry the whole batch, or drop it. A message that keeps failing moves to the DLQ.
      fn.alias.addEventSource(
        new SqsEventSource(refs.queues[worker.queue], {
          batchSize: worker.batchSize ?? WORKER_BATCH_SIZE,
          reportBatchItemFailures: true,
        }),
      );
      acknowledgeNoDeadLetterTarget(fn.lambda, 'sqs');
      const mapping = fn.alias.node.children.find((child) => child instanceof EventSourceMapping);
      if (!mapping) throw new Error(`No event-source mapping on ${worker.name}`);
      Validations.of(mapping).acknowledge({
        id: 'Serverless-LambdaEventSourceMappingDestination',
        reason:
          'Lambda takes an on-failure destination for stream and Kafka sources only, not for SQS: a message failing ' +
          `maxReceiveCount (${queue.maxReceiveCount}) times moves to the ${queue.deadLetterName(settings.name)} queue, ` +
          'which alarms.',
      });
    }

    for (const rule of IOT_RULES.filter((r) => r.area === area)) {
      const fn = new ServiceFunction(this, rule.name, {
        entry: join(props.projectRoot, rule.entry),
        projectRoot: props.projectRoot,
        service: area,
        envName: settings.name,
        description: `the ${rule.name} IoT rule (${settings.name})`,
        logs,
        bundle: settings,
      });
      grantServiceResources(fn, SERVICE_RESOURCES[area], refs, { sessionCheck: false, billing: false });
      this.functions[rule.name] = fn.lambda;
      deployments.add(rule.name, fn);

      // When IoT Core cannot invoke the function (throttled, missing permission), the rule says so here
      // instead of dropping the message silently.
      const errors = new LogGroup(this, `${rule.name}Errors`, {
        retention: logs.retention,
        removalPolicy: logs.removalPolicy,
      });
      const errorRole = new Role(this, `${rule.name}ErrorRole`, {
        assumedBy: new ServicePrincipal('iot.amazonaws.com'),
        description: `Lets the ${rule.name} rule log its failed actions`,
      });
      errorRole.addToPolicy(
        new PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [errors.logGroupArn],
        }),
      );
      // Each line the error action writes is one message the rule failed to hand to the function.
      countLogEvents(`${rule.name}ActionFailures`, errors, LOG_METRICS.iotRuleActionFailed, '{ $.ruleName = "*" }', {
        RuleName: '$.ruleName',
      });
      const ruleName = iotRuleName(rule.name, settings.name);
      this.iotRules[rule.name] = ruleName;
      const topicRule = new CfnTopicRule(this, `${rule.name}Rule`, {
        ruleName,
        topicRulePayload: {
          description: `${rule.topicFilter} into the ${rule.name} function (${settings.name})`,
          sql: iotRuleSql(rule.topicFilter),
          awsIotSqlVersion: '2016-03-23',
          ruleDisabled: false,
          actions: [{ lambda: { functionArn: fn.alias.functionArn } }],
          errorAction: { cloudwatchLogs: { logGroupName: errors.logGroupName, roleArn: errorRole.roleArn } },
        },
      });
      // IoT invokes the function asynchronously: an event still failing after Lambda's retries is kept here
      // (14 days) instead of being dropped, for someone to look at and replay.
      const failures = new Queue(this, `${rule.name}Failures`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      acknowledgeDeadLetterQueue(failures, `the ${rule.name} function (its on-failure destination)`, {
        standalone: true,
      });
      acknowledgeNoDeadLetterTarget(fn.lambda, 'iot');
      this.deadLetterQueues[`${rule.name}Failures`] = failures;
      fn.alias.configureAsyncInvoke({ onFailure: new SqsDestination(failures), retryAttempts: 2 });
      fn.alias.addPermission(`${rule.name}Invoke`, {
        principal: new ServicePrincipal('iot.amazonaws.com'),
        sourceArn: topicRule.attrArn,
        sourceAccount: this.account,
      });
    }

    for (const authorizer of IOT_AUTHORIZERS.filter((a) => a.area === area)) {
      const fn = new ServiceFunction(this, authorizer.name, {
        entry: join(props.projectRoot, authorizer.entry),
        projectRoot: props.projectRoot,
        service: area,
        envName: settings.name,
        description: `the ${authorizer.name} IoT custom authorizer (${settings.name})`,
        // IoT Core waits at most 5 seconds for an authorizer's answer; one GetItem takes milliseconds.
        timeout: Duration.seconds(5),
        logs,
        bundle: settings,
      });
      // Only the credential, by its key: no IoT, Cognito or write grant (decision 031).
      for (const table of authorizer.keyReadTables) fn.readTableByKey(refs.tables[table], TABLES[table].envVar);
      // The policies it answers name this account's and region's IoT resources.
      fn.lambda.addEnvironment('IOT_ARN_PREFIX', `arn:${this.partition}:iot:${this.region}:${this.account}`);
      // The environment's ingest rules, whose Basic Ingest topics the policies open to each device (decision 043).
      fn.lambda.addEnvironment('READINGS_RULE_NAME', readingsRuleName(settings.name));
      fn.lambda.addEnvironment('FIRMWARE_STATUS_RULE_NAME', firmwareStatusRuleName(settings.name));
      // IoT Core invokes it synchronously and answers the device itself: nothing to retry, no dead letters.
      acknowledgeNoDeadLetterTarget(fn.lambda, 'iot-authorizer');
      this.functions[authorizer.name] = fn.lambda;
      deployments.add(authorizer.name, fn);
      const authorizerName = authorizer.authorizerName(settings.name);
      this.iotAuthorizers[authorizer.name] = authorizerName;
      const iotAuthorizer = new CfnAuthorizer(this, `${authorizer.name}Authorizer`, {
        authorizerName,
        // The live alias, as every other trigger: CodeDeploy shifts it (docs/decisions/032-edge-and-gradual-deploys.md).
        authorizerFunctionArn: fn.alias.functionArn,
        // Devices present their credential as the MQTT user name and password: there is no token to sign.
        signingDisabled: true,
        status: 'ACTIVE',
      });
      fn.alias.addPermission(`${authorizer.name}Invoke`, {
        principal: new ServicePrincipal('iot.amazonaws.com'),
        sourceArn: iotAuthorizer.attrArn,
        sourceAccount: this.account,
      });
    }
  }
}
