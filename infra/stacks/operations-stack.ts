import { ArnFormat, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { TABLES, type TableDefinition, tableName } from '../../functions/_shared/tables';
import { APP_METRICS, type AppMetric } from '../../shared/operations/metrics';
import { RUM_DIMENSIONS, WEB_VITALS } from '../../shared/operations/web-vitals';
import {
  ALARM_THRESHOLDS,
  type AlarmThreshold,
  APP_METRIC_SOURCES,
  LOG_METRICS,
  metricNamespace,
  workQueueAge,
} from '../definitions/alarms';
import type { EnvironmentSettings } from '../definitions/environments';
import { QUEUES } from '../definitions/storage';
import { unexpectedErrors } from '../services/function-errors';
import { appMonitorName } from '../services/real-user-monitoring';

/** One REST API, by the names API Gateway's metrics carry. */
export interface WatchedApi {
  /** What the dashboard and the alarms call it (the service area). */
  label: string;
  /** The REST API's name (the `ApiName` dimension). */
  apiName: string;
  /** Its stage (the `Stage` dimension). */
  stageName: string;
}

/** Props of the {@link OperationsStack}. */
export interface OperationsStackProps extends StackProps {
  settings: EnvironmentSettings;
  /** Every REST API of the environment. */
  apis: WatchedApi[];
  /** Every function of the environment, grouped for the dashboard (a service area, the identity triggers): group → id → function. */
  functionGroups: Record<string, Record<string, IFunction>>;
  /** Dead-letter queues created outside QUEUES (an IoT rule's failure destination), by construct id. */
  deadLetterQueues: Record<string, IQueue>;
  /** The environment's IoT topic rules' names, by construct id. */
  iotRules: Record<string, string>;
}

const minutes = (t: AlarmThreshold) => Duration.minutes(t.periodMinutes);

/** Up to `size` items per chunk: a graph stays readable, and under CloudWatch's limit of metrics per widget. */
const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * What an operator watches in one environment (docs/decisions/025-alarms-and-dashboard.md): an encrypted SNS topic
 * that e-mails the environment's alarm address, an alarm for every API, function, queue, table, IoT rule, the mail
 * reputation and Stripe's webhook, each sending to the topic when it fires and when it clears, and one dashboard.
 * Deployed last: it only reads what the other stacks created, so removing it takes nothing else with it.
 */
export class OperationsStack extends Stack {
  /** The topic every alarm of the environment notifies. */
  readonly alarmTopic: Topic;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    super(scope, id, props);
    const env = props.settings.name;
    const namespace = metricNamespace(env);

    // CloudWatch encrypts the notification itself, and the AWS-managed SNS key does not let it: the topic needs a key
    // of our own whose policy names CloudWatch (without it, alarms fire but no e-mail is ever sent).
    const key = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm topic of device-data ${env}`,
      enableKeyRotation: true,
      // It protects messages in flight only (SNS keeps none), so nothing is lost with it.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    const topic = new Topic(this, 'AlarmTopic', {
      topicName: `device-data-${env}-alarms`,
      displayName: `device-data ${env} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // The topic policy that enforceSSL writes replaces SNS's default one, which let the account's services publish.
    topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: {
            'aws:SourceArn': this.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    const alarmMail = topic.addSubscription(new EmailSubscription(props.settings.alarmEmail));
    Validations.of(alarmMail).acknowledge({
      id: 'Serverless-SNSRedrivePolicy',
      reason:
        "The alarm e-mail, this topic's only subscription. A dead-letter queue for undelivered alarm mail would need " +
        'an alarm of its own, and that alarm could only notify through this same topic and address.',
    });
    this.alarmTopic = topic;
    const action = new SnsAction(topic);

    const alarm = (
      id: string,
      name: string,
      description: string,
      metric: IMetric,
      t: AlarmThreshold,
      comparisonOperator = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    ): Alarm => {
      const created = new Alarm(this, id, {
        alarmName: `device-data-${env}-${name}`,
        alarmDescription: description,
        metric,
        threshold: t.threshold,
        evaluationPeriods: t.evaluationPeriods,
        datapointsToAlarm: t.datapoints ?? t.evaluationPeriods,
        comparisonOperator,
        // No traffic, no messages, no throttles: CloudWatch publishes nothing, and nothing is wrong.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      // The all-clear too, so whoever got the alarm knows without opening the console.
      created.addOkAction(action);
      return created;
    };

    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `device-data-${env}` });
    dashboard.addWidgets(
      new TextWidget({
        markdown:
          `# device-data ${env}\n` +
          `Alarms e-mail **${props.settings.alarmEmail}** (SNS topic \`device-data-${env}-alarms\`). ` +
          'What each alarm means: README, "Operations: alarms and the dashboard".',
        width: 24,
        height: 2,
      }),
    );

    // APIs: the share of requests answered 5xx, and how long the slowest hundredth waited.
    const apiWidgets = props.apis.map((api) => {
      const dimensionsMap = { ApiName: api.apiName, Stage: api.stageName };
      const t5xx = ALARM_THRESHOLDS.api5xxRate;
      const rate = new Metric({
        namespace: 'AWS/ApiGateway',
        metricName: '5XXError',
        dimensionsMap,
        statistic: 'Average',
        period: minutes(t5xx),
        label: '5xx rate',
      });
      const tLatency = ALARM_THRESHOLDS.apiP99LatencyMs;
      const latency = new Metric({
        namespace: 'AWS/ApiGateway',
        metricName: 'Latency',
        dimensionsMap,
        statistic: 'p99',
        period: minutes(tLatency),
        label: 'p99 latency (ms)',
      });
      alarm(
        `${api.label}Api5xxRate`,
        `${api.label}-api-5xx-rate`,
        `More than ${t5xx.threshold * 100} % of ${api.apiName}'s requests answered 5xx: a bug or an outage behind the API.`,
        rate,
        t5xx,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
      );
      alarm(
        `${api.label}ApiP99Latency`,
        `${api.label}-api-p99-latency`,
        `${api.apiName}'s p99 latency above ${tLatency.threshold} ms for ${tLatency.periodMinutes * tLatency.evaluationPeriods} minutes.`,
        latency,
        tLatency,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
      );
      return new GraphWidget({
        title: `${api.label} API (${api.apiName})`,
        left: [rate],
        right: [latency],
        leftYAxis: { min: 0, max: 1, label: '5xx rate' },
        rightYAxis: { min: 0, label: 'ms' },
        width: 8,
      });
    });
    for (const row of chunks(apiWidgets, 3)) dashboard.addWidgets(...row);

    // Functions: errors and throttles of each, one graph per group.
    const tErrors = ALARM_THRESHOLDS.functionErrors;
    const tThrottles = ALARM_THRESHOLDS.functionThrottles;
    const functionWidgets = Object.entries(props.functionGroups).map(([group, functions]) => {
      const errors: IMetric[] = [];
      const throttles: IMetric[] = [];
      for (const [id, fn] of Object.entries(functions)) {
        const errorMetric = unexpectedErrors(
          id,
          fn.metricErrors({ period: minutes(tErrors), statistic: 'Sum', label: `${id} errors` }),
          props.settings.name,
        );
        const throttleMetric = fn.metricThrottles({
          period: minutes(tThrottles),
          statistic: 'Sum',
          label: `${id} throttles`,
        });
        alarm(
          `${id}Errors`,
          `${id}-errors`,
          `The ${id} function (${group}) ended in error: an uncaught exception, a timeout or out of memory. Its log group says which.`,
          errorMetric,
          tErrors,
        );
        alarm(
          `${id}Throttles`,
          `${id}-throttles`,
          `Lambda refused to run the ${id} function (${group}): the account's concurrency is used up.`,
          throttleMetric,
          tThrottles,
        );
        errors.push(errorMetric);
        throttles.push(throttleMetric);
      }
      return new GraphWidget({
        title: `${group} functions: errors (left), throttles (right)`,
        left: errors,
        right: throttles,
        width: 8,
      });
    });
    for (const row of chunks(functionWidgets, 3)) dashboard.addWidgets(...row);

    // Queues: a dead-letter queue should be empty; a work queue should never hold a message longer than its retries.
    const queueMetric = (queueName: string, metricName: string, t: AlarmThreshold) =>
      new Metric({
        namespace: 'AWS/SQS',
        metricName,
        dimensionsMap: { QueueName: queueName },
        statistic: 'Maximum',
        period: minutes(t),
        label: queueName,
      });
    const depthMetrics: IMetric[] = [];
    const ageMetrics: IMetric[] = [];
    const watchDeadLetters = (id: string, queueName: string) => {
      const tDepth = ALARM_THRESHOLDS.deadLetterDepth;
      const depth = queueMetric(queueName, 'ApproximateNumberOfMessagesVisible', tDepth);
      alarm(
        `${id}Depth`,
        `${id}-depth`,
        `Messages wait in the dead-letter queue ${queueName}: work that failed every retry. Look at them, fix the cause, redrive.`,
        depth,
        tDepth,
      );
      const tAge = ALARM_THRESHOLDS.deadLetterAgeSeconds;
      const age = queueMetric(queueName, 'ApproximateAgeOfOldestMessage', tAge);
      alarm(
        `${id}Age`,
        `${id}-age`,
        `A message has waited over ${tAge.threshold / 86_400} days in ${queueName}; SQS deletes it at 14 days.`,
        age,
        tAge,
      );
      depthMetrics.push(depth);
      ageMetrics.push(age);
    };
    for (const queue of Object.values(QUEUES)) {
      const tAge = workQueueAge(queue);
      const age = queueMetric(queue.name(env), 'ApproximateAgeOfOldestMessage', tAge);
      alarm(
        `${queue.constructId}Age`,
        `${queue.constructId}-age`,
        `A message has waited over ${tAge.threshold} s in ${queue.name(env)}, longer than all its retries take: its worker is not receiving.`,
        age,
        tAge,
      );
      ageMetrics.push(age);
      watchDeadLetters(`${queue.constructId}DeadLetters`, queue.deadLetterName(env));
    }
    // A queue created without a name has the one CloudFormation gave it, known here only through the reference.
    for (const [id, queue] of Object.entries(props.deadLetterQueues)) watchDeadLetters(id, queue.queueName);
    dashboard.addWidgets(
      new GraphWidget({ title: 'Dead-letter queues: messages waiting', left: depthMetrics, width: 12 }),
      new GraphWidget({ title: 'Queues: age of the oldest message (s)', left: ageMetrics, width: 12 }),
    );

    // Tables: throttled reads and writes (on-demand tables throttle on a hot partition or their ceiling).
    const tTables = ALARM_THRESHOLDS.tableThrottles;
    // Math ids are per graph, so each table's (and each rule's) carry its index.
    const tableMetrics = Object.values(TABLES).map((definition, i) => {
      const name = tableName(definition as TableDefinition, env);
      const throttled = (metricName: string) =>
        new Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap: { TableName: name },
          statistic: 'Sum',
          period: minutes(tTables),
        });
      // DynamoDB publishes a throttle metric only when it throttled; a missing one counts as none.
      const metric = new MathExpression({
        expression: `FILL(reads${i}, 0) + FILL(writes${i}, 0)`,
        usingMetrics: {
          [`reads${i}`]: throttled('ReadThrottleEvents'),
          [`writes${i}`]: throttled('WriteThrottleEvents'),
        },
        period: minutes(tTables),
        label: name,
      });
      alarm(
        `${definition.constructId}Throttles`,
        `${definition.constructId}-throttles`,
        `DynamoDB throttled reads or writes of ${name}: a hot partition key or the on-demand ceiling.`,
        metric,
        tTables,
      );
      return metric;
    });
    for (const [index, row] of chunks(tableMetrics, 8).entries()) {
      dashboard.addWidgets(
        new GraphWidget({ title: `Tables: throttled reads and writes (${index + 1})`, left: row, width: 6 }),
      );
    }

    // IoT rules: messages the rule could not hand to its function, and messages the rules engine throttled.
    const tIot = ALARM_THRESHOLDS.iotRuleErrors;
    const iotMetrics = Object.entries(props.iotRules).flatMap(([id, ruleName], i) => {
      const iot = (metricName: string) =>
        new Metric({
          namespace: 'AWS/IoT',
          metricName,
          dimensionsMap: { RuleName: ruleName },
          statistic: 'Sum',
          period: minutes(tIot),
        });
      const errors = new MathExpression({
        expression: `FILL(failed${i}, 0) + FILL(throttled${i}, 0)`,
        usingMetrics: {
          [`failed${i}`]: new Metric({
            namespace,
            metricName: LOG_METRICS.iotRuleActionFailed,
            dimensionsMap: { RuleName: ruleName },
            statistic: 'Sum',
            period: minutes(tIot),
          }),
          [`throttled${i}`]: iot('RuleMessageThrottled'),
        },
        period: minutes(tIot),
        label: `${ruleName} errors`,
      });
      alarm(
        `${id}RuleErrors`,
        `${id}-rule-errors`,
        `The IoT rule ${ruleName} failed to hand messages to its function, or was throttled: device readings lost ` +
          "before the code saw them. The rule's error log group holds each failure.",
        errors,
        tIot,
      );
      return [
        errors,
        iot('TopicMatch').with({ label: `${ruleName} matched` }),
        iot('ParseError').with({ label: `${ruleName} unparsable` }),
      ];
    });

    // Mail: SES's reputation is the account's, so an account shared by environments alarms in each of them.
    const tBounce = ALARM_THRESHOLDS.mailBounceRate;
    const tComplaint = ALARM_THRESHOLDS.mailComplaintRate;
    const reputation = (metricName: string, t: AlarmThreshold, label: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: minutes(t), label });
    const bounceRate = reputation('Reputation.BounceRate', tBounce, 'bounce rate');
    const complaintRate = reputation('Reputation.ComplaintRate', tComplaint, 'complaint rate');
    alarm(
      'MailBounceRate',
      'mail-bounce-rate',
      `SES's bounce rate is ${tBounce.threshold * 100} % or more; above 5 % SES reviews the account and may pause its sending.`,
      bounceRate,
      tBounce,
    );
    alarm(
      'MailComplaintRate',
      'mail-complaint-rate',
      `SES's complaint rate is ${tComplaint.threshold * 100} % or more; above 0.1 % SES reviews the account.`,
      complaintRate,
      tComplaint,
    );

    // Billing: Stripe's deliveries refused for their signature (a metric filter on the customer area's log group).
    const tStripe = ALARM_THRESHOLDS.stripeWebhookRefusals;
    const refusals = new Metric({
      namespace,
      metricName: LOG_METRICS.stripeWebhookRefused,
      statistic: 'Sum',
      period: minutes(tStripe),
      label: 'refused deliveries',
    });
    alarm(
      'StripeWebhookRefusals',
      'stripe-webhook-refusals',
      'Stripe webhook deliveries are being refused for their signature: the signing secret in Secrets Manager ' +
        "no longer matches the endpoint's in Stripe's dashboard, so subscription changes are not recorded.",
      refusals,
      tStripe,
    );

    dashboard.addWidgets(
      new GraphWidget({ title: 'IoT rules', left: iotMetrics, width: 8 }),
      new GraphWidget({ title: 'Mail (SES account reputation)', left: [bounceRate, complaintRate], width: 8 }),
      new GraphWidget({ title: 'Stripe webhook: refused signatures', left: [refusals], width: 8 }),
    );

    // What the functions count themselves (EMF through Powertools): the product's own flow, beside AWS's metrics.
    const app = (name: AppMetric, statistic: string, label: string) =>
      new Metric({
        namespace,
        metricName: name,
        dimensionsMap: { service: APP_METRIC_SOURCES[name] },
        statistic,
        period: Duration.minutes(5),
        label,
      });
    dashboard.addWidgets(
      new TextWidget({
        markdown: '## What the functions count\nWritten by each function as EMF (Powertools Metrics), per 5 minutes.',
        width: 24,
        height: 1,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Readings stored and refused',
        left: [
          app(APP_METRICS.readingsAccepted, 'Sum', 'accepted'),
          app(APP_METRICS.readingsRefused, 'Sum', 'refused'),
        ],
        width: 6,
      }),
      new GraphWidget({
        title: 'Roll-up lag (s): readings stored to charts written',
        left: [app(APP_METRICS.rollupLag, 'p50', 'p50'), app(APP_METRICS.rollupLag, 'Maximum', 'max')],
        width: 6,
      }),
      new GraphWidget({
        title: 'Notification e-mail',
        left: [
          app(APP_METRICS.notificationsSent, 'Sum', 'sent'),
          app(APP_METRICS.notificationsFailed, 'Sum', 'given up'),
        ],
        width: 6,
      }),
      new GraphWidget({
        title: 'Billing, API quotas and sign-ups refused',
        left: [
          app(APP_METRICS.checkouts, 'Sum', 'checkouts started'),
          app(APP_METRICS.webhookFailures, 'Sum', 'webhook deliveries failed'),
          app(APP_METRICS.quotaCrossings, 'Sum', 'quota thresholds crossed'),
          app(APP_METRICS.signUpsRefused, 'Sum', 'sign-ups refused by the linking rule'),
        ],
        width: 6,
      }),
    );

    // Real visitors (CloudWatch RUM, docs/decisions/040-real-user-monitoring.md): each vital's 75th percentile per
    // route, as web-vitals thresholds are judged. A SEARCH finds every route's series, so a new route shows up
    // without a change here; PageId is the route's pattern, never an object's id.
    const monitor = appMonitorName(env);
    const rum = (metricName: string, statistic: string, label: string) =>
      new Metric({
        namespace: 'AWS/RUM',
        metricName,
        dimensionsMap: { [RUM_DIMENSIONS.monitor]: monitor },
        statistic,
        period: Duration.minutes(5),
        label,
      });
    dashboard.addWidgets(
      new TextWidget({
        markdown:
          '## Real visitors (CloudWatch RUM)\nVisitors who switched measurements on; 75th percentile per route, per 5 minutes.',
        width: 24,
        height: 1,
      }),
    );
    dashboard.addWidgets(
      ...WEB_VITALS.map(
        (vital) =>
          new GraphWidget({
            title: `${vital.name} per route (p75)`,
            left: [
              rum(vital.metric, 'p75', 'all routes'),
              new MathExpression({
                expression:
                  `SEARCH('{AWS/RUM,${RUM_DIMENSIONS.monitor},${RUM_DIMENSIONS.page}} ` +
                  `MetricName="${vital.metric}" ${RUM_DIMENSIONS.monitor}="${monitor}"', 'p75', 300)`,
                usingMetrics: {},
                label: '',
              }),
            ],
            width: 6,
          }),
      ),
      new GraphWidget({
        title: 'Page views and JavaScript errors',
        left: [rum('PageViewCount', 'Sum', 'page views'), rum('JsErrorCount', 'Sum', 'JavaScript errors')],
        width: 6,
      }),
    );
  }
}
