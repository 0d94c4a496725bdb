/**
 * Published on-demand prices of us-west-2 (US West, Oregon), the first volume tier of each, as AWS's pricing pages
 * state them. Kept as data with where each comes from, so a reviewer can check one line against its page; prices
 * change, and `npm run bench` prints this date beside every cost it derives. Free tiers are left out: they are per
 * account, not per device. Amounts are US dollars.
 */
export const AWS_PRICES = {
  region: 'us-west-2',
  /** When these figures were last compared with the pages below. */
  asOf: '2026-11-27',
  lambda: {
    source: 'https://aws.amazon.com/lambda/pricing/ (Arm, first 7.5 billion GB-seconds)',
    perMillionRequests: 0.2,
    perGbSecondArm: 0.0000133334,
  },
  apiGateway: {
    source: 'https://aws.amazon.com/api-gateway/pricing/ (REST APIs, first 333 million requests)',
    perMillionRestRequests: 3.5,
  },
  iotCore: {
    source: 'https://aws.amazon.com/iot-core/pricing/ (messaging first billion; connectivity; rules engine)',
    /** A message is metered in 5 KB increments. */
    perMillionMessages: 1.0,
    perMillionConnectionMinutes: 0.08,
    perMillionRulesTriggered: 0.15,
    perMillionActionsExecuted: 0.15,
  },
  dynamodb: {
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/ (on-demand capacity, standard table class)',
    perMillionWriteRequestUnits: 0.625,
    perMillionReadRequestUnits: 0.125,
    perGbMonth: 0.25,
  },
  s3: {
    source: 'https://aws.amazon.com/s3/pricing/ (S3 Standard)',
    perThousandPuts: 0.005,
    perThousandGets: 0.0004,
  },
  sqs: {
    source: 'https://aws.amazon.com/sqs/pricing/ (each 64 KB chunk of a request is one request)',
    perMillionStandardRequests: 0.4,
    perMillionFifoRequests: 0.5,
  },
  cloudWatchLogs: {
    source: 'https://aws.amazon.com/cloudwatch/pricing/ (logs, standard class, ingestion)',
    perGbIngested: 0.5,
  },
  xray: {
    source: 'https://aws.amazon.com/xray/pricing/ (traces recorded)',
    perMillionTracesRecorded: 5.0,
  },
} as const;

/**
 * The service quotas 100,000 devices would meet, as AWS documents their defaults (most can be raised on request),
 * beside the settings of ours that cap the same thing.
 */
export const AWS_LIMITS = {
  lambdaConcurrency: { value: 1_000, source: 'Lambda: concurrent executions per account and region (default)' },
  dynamodbPartitionWrites: { value: 1_000, source: 'DynamoDB: write units per second on one partition key' },
  dynamodbTableWrites: { value: 40_000, source: 'DynamoDB on-demand: write request units per second per table' },
  iotPublishPerSecond: { value: 20_000, source: 'IoT Core: inbound publish requests per second per account' },
  iotConnections: { value: 500_000, source: 'IoT Core: concurrent connections per account' },
  iotRuleEvaluations: { value: 20_000, source: 'IoT Core: rule evaluations per second per account' },
  apiGatewayAccount: { value: 10_000, source: 'API Gateway: requests per second per account and region' },
} as const;
