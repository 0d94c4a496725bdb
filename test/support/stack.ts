import { readFileSync } from 'node:fs';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../infra/local/demo-data';
import { LOCAL_CREDENTIALS } from '../../infra/local/emulators/listen';
import { StackInfo } from '../../infra/local/stack-info';
import { AREAS, type AreaName } from '../../shared/contracts/areas';
import { ApiError, createAreaClient } from '../../shared/contracts/client';

const credentials = LOCAL_CREDENTIALS;

let cached: StackInfo | undefined;

/** The stack the global setup started for this run. */
export const stack = (): StackInfo => {
  if (!cached) {
    const file = process.env.TEST_STACK_FILE;
    if (!file) throw new Error('TEST_STACK_FILE is not set: run these tests through the "stack" jest project');
    cached = StackInfo.parse(JSON.parse(readFileSync(file, 'utf8')));
  }
  return cached;
};

export const cognitoClient = () =>
  new CognitoIdentityProviderClient({ region: stack().region, endpoint: stack().endpoints.cognito, credentials });

/** S3 on the local emulator, configured as the functions' client is there (functions/_shared/clients.ts). */
export const s3Client = () =>
  new S3Client({
    region: stack().region,
    endpoint: stack().endpoints.s3,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });

/** SQS on the local emulator (fauxqs wants its endpoint passed explicitly). */
export const sqsClient = () => new SQSClient({ region: stack().region, endpoint: stack().endpoints.sqs, credentials });

export const documentClient = () =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: stack().region, endpoint: stack().endpoints.dynamodb, credentials }),
  );

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]['email'];

const tokens = new Map<string, Promise<{ accessToken: string; idToken: string; refreshToken: string }>>();

/** Signs a user in through the real Cognito SDK against the local identity provider (once per user and run). */
export const signIn = (email: string, password = DEMO_PASSWORD) => {
  const key = `${email}:${password}`;
  if (!tokens.has(key)) {
    tokens.set(
      key,
      cognitoClient()
        .send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: stack().auth.clientId,
            AuthParameters: { USERNAME: email, PASSWORD: password },
          }),
        )
        .then((result) => ({
          accessToken: result.AuthenticationResult!.AccessToken!,
          idToken: result.AuthenticationResult!.IdToken!,
          refreshToken: result.AuthenticationResult!.RefreshToken!,
        })),
    );
  }
  return tokens.get(key)!;
};

export const areaUrl = (area: AreaName) => `${stack().endpoints.gateway}/${area}`;

/** The typed client of one area, as a guest (no token) or with the given token. */
export const apiAs = <A extends AreaName>(area: A, token?: string) =>
  createAreaClient(AREAS[area], { baseUrl: areaUrl(area), getToken: () => token });

export const tokenOf = async (email: DemoEmail) => (await signIn(email)).accessToken;

export const uniqueId = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The `sub` claim (the user id) of a token the local identity provider issued. */
export const subOfToken = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;

/** A demo account's user id: the `sub` claim of its verified access token. */
export const subOf = async (email: DemoEmail): Promise<string> => subOfToken(await tokenOf(email));

/** The ApiError a call was refused with; fails the test when it succeeded or failed some other way. */
export const apiRejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`Expected an API refusal, got ${String(error)}`);
  return error;
};

/** Every page of a paged list: suites share one stack, so a demo account's lists grow past any one page. */
export const everyPage = async <T>(read: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>) => {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
};
