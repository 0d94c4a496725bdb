import { CognitoIdentityClient, GetIdCommand } from '@aws-sdk/client-cognito-identity';
import {
  AttachPolicyCommand,
  DetachPolicyCommand,
  IoTClient,
  IoTServiceException,
  ResourceNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-iot';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { LIVE_MESSAGES } from '../../../shared/contracts/sensor-data-live';
import { callerOf } from '../../../test/support/callers';
import { createCloudRealtimeIdentity, createLocalRealtimeIdentity } from './live-identity';

const cognito = mockClient(CognitoIdentityClient);
const iot = mockClient(IoTClient);

const caller = (sub: string, tokenUse: 'id' | 'access') => callerOf(sub, [], tokenUse);

const identity = createCloudRealtimeIdentity({
  identityPoolId: 'eu-west-1:pool',
  issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
  // Stands in for the API's verifier: the token's text names its holder and use.
  verifyToken: async (token) => {
    const [use, sub] = token.split(':');
    if (!sub) throw new Error('bad token');
    return caller(sub, use as 'id' | 'access');
  },
  cognitoIdentity: () => new CognitoIdentityClient({ region: 'eu-west-1' }),
  iot: () => new IoTClient({ region: 'eu-west-1' }),
});

describe('the cloud realtime identity', () => {
  beforeEach(() => {
    cognito.reset();
    iot.reset();
  });

  it('finds the caller’s identity with their own ID token as the user pool login', async () => {
    cognito.on(GetIdCommand).resolves({ IdentityId: 'eu-west-1:1111' });
    expect(await identity.identityOf(caller('alice', 'access'), 'id:alice')).toBe('eu-west-1:1111');
    expect(cognito.commandCalls(GetIdCommand)[0]!.args[0].input).toEqual({
      IdentityPoolId: 'eu-west-1:pool',
      Logins: { 'cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc': 'id:alice' },
    });
  });

  it('refuses a missing ID token (400), someone else’s, an access token or a bad one (403) without asking Cognito', async () => {
    const alice = caller('alice', 'access');
    await expect(identity.identityOf(alice, undefined)).rejects.toMatchObject({
      status: 400,
      message: LIVE_MESSAGES.idTokenNeeded,
    });
    for (const token of ['id:bob', 'access:alice', 'garbage']) {
      await expect(identity.identityOf(alice, token)).rejects.toMatchObject({
        status: 403,
        message: LIVE_MESSAGES.idTokenNotYours,
      });
    }
    expect(cognito.commandCalls(GetIdCommand)).toHaveLength(0);
  });

  it('attaches and detaches exactly the realtime policy', async () => {
    iot.on(AttachPolicyCommand).resolves({});
    iot.on(DetachPolicyCommand).resolves({});
    expect(await identity.attach('eu-west-1:1111')).toBe('iot');
    expect(await identity.detach('eu-west-1:1111')).toBe('iot');
    expect(iot.commandCalls(AttachPolicyCommand)[0]!.args[0].input).toEqual({
      policyName: 'IoTPolicyForCognito',
      target: 'eu-west-1:1111',
    });
    expect(iot.commandCalls(DetachPolicyCommand)[0]!.args[0].input).toEqual({
      policyName: 'IoTPolicyForCognito',
      target: 'eu-west-1:1111',
    });
  });
});

describe("IoT Core's errors on the target policies (spec §8)", () => {
  const meta = { $metadata: { httpStatusCode: 400 } };
  let logged: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    iot.reset();
    logged = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  it('answers a throttled or failing service with a 503 to try again, logging the code', async () => {
    iot.on(AttachPolicyCommand).rejects(new ThrottlingException({ message: 'Rate exceeded', ...meta }));
    await expect(identity.attach('eu-west-1:1111')).rejects.toMatchObject({
      status: 503,
      message: 'The realtime service is busy; please try again shortly',
    });
    expect(JSON.parse(String(logged.mock.calls[0]![0]))).toMatchObject({ code: 'ThrottlingException' });
  });

  it('throws any other error on as the named IoT error (a 500 for the chain), an unknown code as the generic one', async () => {
    iot.on(DetachPolicyCommand).rejects(new ResourceNotFoundException({ message: 'No policy', ...meta }));
    await expect(identity.detach('eu-west-1:1111')).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'No policy',
      retryable: false,
    });
    iot
      .on(DetachPolicyCommand)
      .rejects(
        new IoTServiceException({ name: 'aws.iot#BrandNewException', $fault: 'client', message: 'new', ...meta }),
      );
    await expect(identity.detach('eu-west-1:1111')).rejects.toMatchObject({
      name: 'IoTServiceException',
      code: 'BrandNewException',
    });
  });
});

describe('the local realtime identity', () => {
  it('is local:{sub}, with nothing to attach', async () => {
    const local = createLocalRealtimeIdentity();
    expect(await local.identityOf(caller('alice', 'access'), undefined)).toBe('local:alice');
    expect(await local.attach('local:alice')).toBe('local');
  });
});
