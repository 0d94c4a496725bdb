import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createEndpointCache, type EndpointSettings } from '../../shared/config/endpoints';
import { type EnvSource, readFlagEnv, readOptionalEnv } from './env';
import { traced } from './tracing';

// Endpoints come from the SDK's standard AWS_ENDPOINT_URL_* variables, so the same code reaches the
// emulators locally and AWS in the cloud.

/**
 * An SDK client's endpoint settings, read from the standard variables the SDK itself reads (AWS_REGION,
 * AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT, AWS_ENDPOINT_URL_{SERVICE} or AWS_ENDPOINT_URL), as it reads them:
 * an endpoint left unset is AWS's own. `serviceId` is the SDK's id as those variables spell it: `DYNAMODB`,
 * `IOT_DATA_PLANE`.
 */
export const awsEndpointSettings = (serviceId: string, env?: EnvSource): EndpointSettings => {
  const endpoint = readFlagEnv('AWS_IGNORE_CONFIGURED_ENDPOINT_URLS', env)
    ? undefined
    : (readOptionalEnv(`AWS_ENDPOINT_URL_${serviceId}`, env) ?? readOptionalEnv('AWS_ENDPOINT_URL', env));
  return {
    service: serviceId,
    region: readOptionalEnv('AWS_REGION', env) ?? readOptionalEnv('AWS_DEFAULT_REGION', env),
    useFips: readFlagEnv('AWS_USE_FIPS_ENDPOINT', env),
    useDualstack: readFlagEnv('AWS_USE_DUALSTACK_ENDPOINT', env),
    ...(endpoint ? { endpoint } : {}),
  };
};

const checkedSettings = createEndpointCache(({ region, useFips, useDualstack }) => ({
  region: region!,
  useFipsEndpoint: useFips ?? false,
  useDualstackEndpoint: useDualstack ?? false,
}));

/**
 * What every SDK client is built with: the region and endpoint variants, checked first (spec §8), so a Lambda
 * configured without a region, or with FIPS or dual-stack beside a custom endpoint, fails when it builds the client
 * with the reason, not on its first call with the SDK's.
 */
export const clientSettings = (serviceId: string, env?: EnvSource) =>
  checkedSettings(awsEndpointSettings(serviceId, env));

let documentClient: DynamoDBDocumentClient | undefined;

export const getDocumentClient = (): DynamoDBDocumentClient => {
  documentClient ??= DynamoDBDocumentClient.from(traced(new DynamoDBClient(clientSettings('DYNAMODB'))), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
};

let sqsClient: SQSClient | undefined;

/**
 * The queue URL never picks the endpoint: the local queue URLs' hosts (`sqs.{region}.127.0.0.1`) are not the
 * emulator's address, and in the cloud both are the regional SQS endpoint anyway.
 */
export const getSqsClient = (): SQSClient => {
  sqsClient ??= traced(new SQSClient({ ...clientSettings('SQS'), useQueueUrlAsEndpoint: false }));
  return sqsClient;
};

let s3Client: S3Client | undefined;

/**
 * Path-style addressing where S3_FORCE_PATH_STYLE is `true` (the local S3 has no virtual-host buckets);
 * checksums only when an operation requires them, as the local S3 does not answer the SDK's default ones.
 */
export const getS3Client = (): S3Client => {
  s3Client ??= traced(
    new S3Client({
      ...clientSettings('S3'),
      forcePathStyle: readFlagEnv('S3_FORCE_PATH_STYLE'),
      requestChecksumCalculation: 'WHEN_REQUIRED',
    }),
  );
  return s3Client;
};

let sesClient: SESv2Client | undefined;

export const getSesClient = (): SESv2Client => {
  sesClient ??= traced(new SESv2Client(clientSettings('SESV2')));
  return sesClient;
};

let cognitoClient: CognitoIdentityProviderClient | undefined;

export const getCognitoClient = (): CognitoIdentityProviderClient => {
  cognitoClient ??= traced(new CognitoIdentityProviderClient(clientSettings('COGNITO_IDENTITY_PROVIDER')));
  return cognitoClient;
};

let secretsManagerClient: SecretsManagerClient | undefined;

export const getSecretsManagerClient = (): SecretsManagerClient => {
  secretsManagerClient ??= traced(new SecretsManagerClient(clientSettings('SECRETS_MANAGER')));
  return secretsManagerClient;
};

let kmsClient: KMSClient | undefined;

/** KMS: the integrations area seals webhooks' signing secrets with the environment's key. */
export const getKmsClient = (): KMSClient => {
  kmsClient ??= traced(new KMSClient(clientSettings('KMS')));
  return kmsClient;
};

let iotDataClient: IoTDataPlaneClient | undefined;

/**
 * IoT Core's data plane (Publish). Its endpoint is the account's own (`AWS_ENDPOINT_URL_IOT_DATA_PLANE`, set by
 * the CDK from DescribeEndpoint); locally it is the MQTT broker's publish front.
 */
export const getIotDataClient = (): IoTDataPlaneClient => {
  iotDataClient ??= traced(new IoTDataPlaneClient(clientSettings('IOT_DATA_PLANE')));
  return iotDataClient;
};
