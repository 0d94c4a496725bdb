import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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

export const getSqsClient = (): SQSClient => {
  sqsClient ??= new SQSClient({});
  return sqsClient;
};
