import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// Endpoints come from the SDK's standard AWS_ENDPOINT_URL_* variables, so the same code reaches the
// emulators locally and AWS in the cloud.
let documentClient: DynamoDBDocumentClient | undefined;

export const getDocumentClient = (): DynamoDBDocumentClient => {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
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
  sqsClient ??= new SQSClient({ useQueueUrlAsEndpoint: false });
  return sqsClient;
};

let s3Client: S3Client | undefined;

/**
 * Path-style addressing where S3_FORCE_PATH_STYLE says so (the local S3 has no virtual-host buckets);
 * checksums only when an operation requires them, as the local S3 does not answer the SDK's default ones.
 */
export const getS3Client = (): S3Client => {
  s3Client ??= new S3Client({
    forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return s3Client;
};

let sesClient: SESv2Client | undefined;

export const getSesClient = (): SESv2Client => {
  sesClient ??= new SESv2Client({});
  return sesClient;
};

let cognitoClient: CognitoIdentityProviderClient | undefined;

export const getCognitoClient = (): CognitoIdentityProviderClient => {
  cognitoClient ??= new CognitoIdentityProviderClient({});
  return cognitoClient;
};

let secretsManagerClient: SecretsManagerClient | undefined;

export const getSecretsManagerClient = (): SecretsManagerClient => {
  secretsManagerClient ??= new SecretsManagerClient({});
  return secretsManagerClient;
};

let iotDataClient: IoTDataPlaneClient | undefined;

/**
 * IoT Core's data plane (Publish). Its endpoint is the account's own (`AWS_ENDPOINT_URL_IOT_DATA_PLANE`, set by
 * the CDK from DescribeEndpoint); locally it is the MQTT broker's publish front.
 */
export const getIotDataClient = (): IoTDataPlaneClient => {
  iotDataClient ??= new IoTDataPlaneClient({});
  return iotDataClient;
};
