import {
  AssociateSoftwareTokenCommand,
  ConfirmDeviceCommand,
  ForgetDeviceCommand,
  InitiateAuthCommand,
  type InitiateAuthCommandOutput,
  ListDevicesCommand,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  UpdateDeviceStatusCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { type BrowserDevice, deviceProof, newDeviceSecret } from '../../support/amplify-device-srp';
import { cognitoClient, stack } from '../../support/stack';
import { freshTotp } from '../../support/totp';
import { freshUser, PASSWORD } from './identity-support';

/**
 * Spec §7's device operations at the local identity layer, driven as Amplify drives them (its own SRP code answers the
 * device challenges): a browser gets a device at sign-in, confirms it, is remembered on request, is listed, and
 * while remembered signs in without the authenticator code; once forgotten, its key no longer skips the code.
 */
const send = cognitoClient;

const signIn = (email: string, deviceKey?: string) =>
  send().send(
    new InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: stack().auth.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: PASSWORD, ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}) },
    }),
  );

const answerTotp = async (challenge: InitiateAuthCommandOutput, secret: string, deviceKey?: string) =>
  send().send(
    new RespondToAuthChallengeCommand({
      ClientId: stack().auth.clientId,
      ChallengeName: 'SOFTWARE_TOKEN_MFA',
      Session: challenge.Session,
      ChallengeResponses: {
        USERNAME: challenge.ChallengeParameters!.USER_ID_FOR_SRP!,
        SOFTWARE_TOKEN_MFA_CODE: await freshTotp(secret),
        ...(deviceKey ? { DEVICE_KEY: deviceKey } : {}),
      },
    }),
  );

/** Device authentication as Amplify's handleDeviceSRPAuth runs it. */
const deviceSignIn = async (challenge: InitiateAuthCommandOutput, device: BrowserDevice, tamper = false) => {
  const proof = await deviceProof(device, tamper ? { randomPassword: 'not-the-device-password' } : {});
  const username = challenge.ChallengeParameters!.USERNAME!;
  const verifier = await send().send(
    new RespondToAuthChallengeCommand({
      ClientId: stack().auth.clientId,
      ChallengeName: 'DEVICE_SRP_AUTH',
      Session: challenge.Session,
      ChallengeResponses: { USERNAME: username, SRP_A: proof.srpA, DEVICE_KEY: device.deviceKey },
    }),
  );
  expect(verifier.ChallengeName).toBe('DEVICE_PASSWORD_VERIFIER');
  return send().send(
    new RespondToAuthChallengeCommand({
      ClientId: stack().auth.clientId,
      ChallengeName: 'DEVICE_PASSWORD_VERIFIER',
      Session: verifier.Session,
      ChallengeResponses: {
        USERNAME: verifier.ChallengeParameters!.USERNAME!,
        DEVICE_KEY: device.deviceKey,
        ...(await proof.claim(verifier.ChallengeParameters!)),
      },
    }),
  );
};

/** A person with an authenticator app set up, and the browser they set it up in, confirmed as Amplify does. */
const personWithTotp = async () => {
  const { email } = await freshUser();
  const first = (await signIn(email)).AuthenticationResult!;
  const metadata = first.NewDeviceMetadata!;
  expect(metadata.DeviceKey).toMatch(/^[a-z]{2}-[a-z]+-\d_[0-9a-f-]{36}$/);
  const { SecretCode } = await send().send(new AssociateSoftwareTokenCommand({ AccessToken: first.AccessToken }));
  await send().send(
    new VerifySoftwareTokenCommand({ AccessToken: first.AccessToken, UserCode: await freshTotp(SecretCode!) }),
  );
  await send().send(
    new SetUserMFAPreferenceCommand({
      AccessToken: first.AccessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    }),
  );
  const { verifierConfig, device } = await newDeviceSecret({
    DeviceKey: metadata.DeviceKey!,
    DeviceGroupKey: metadata.DeviceGroupKey!,
  });
  const confirmed = await send().send(
    new ConfirmDeviceCommand({
      AccessToken: first.AccessToken,
      DeviceKey: device.deviceKey,
      DeviceSecretVerifierConfig: verifierConfig,
      DeviceName: 'Chromium on Linux',
    }),
  );
  // The pool remembers a browser only when the person asks.
  expect(confirmed.UserConfirmationNecessary).toBe(true);
  return { email, secret: SecretCode!, device, accessToken: first.AccessToken! };
};

describe('remembered devices at the local identity layer', () => {
  it('lists the browser, skips the code while it is remembered, and asks for it again once it is forgotten', async () => {
    const { email, secret, device, accessToken } = await personWithTotp();

    // Tracked but not remembered: the code is still asked.
    const notYet = await signIn(email, device.deviceKey);
    expect(notYet.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const session = (await answerTotp(notYet, secret, device.deviceKey)).AuthenticationResult!;
    // A known browser gets no new device.
    expect(session.NewDeviceMetadata).toBeUndefined();

    await send().send(
      new UpdateDeviceStatusCommand({
        AccessToken: session.AccessToken,
        DeviceKey: device.deviceKey,
        DeviceRememberedStatus: 'remembered',
      }),
    );
    const listed = (await send().send(new ListDevicesCommand({ AccessToken: accessToken }))).Devices ?? [];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ DeviceKey: device.deviceKey });
    const attributes = Object.fromEntries((listed[0]!.DeviceAttributes ?? []).map((a) => [a.Name, a.Value]));
    expect(attributes).toEqual({ device_name: 'Chromium on Linux', device_status: 'remembered' });
    expect(listed[0]!.DeviceLastAuthenticatedDate!.getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Remembered: the device proves its key instead of the code.
    const remembered = await signIn(email, device.deviceKey);
    expect(remembered.ChallengeName).toBe('DEVICE_SRP_AUTH');
    const skipped = await deviceSignIn(remembered, device);
    expect(skipped.AuthenticationResult?.AccessToken).toBeDefined();
    expect(skipped.AuthenticationResult?.NewDeviceMetadata).toBeUndefined();

    // A browser that holds the key but not the device's secret is refused.
    await expect(deviceSignIn(await signIn(email, device.deviceKey), device, true)).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });

    await send().send(
      new ForgetDeviceCommand({ AccessToken: skipped.AuthenticationResult!.AccessToken, DeviceKey: device.deviceKey }),
    );
    expect((await send().send(new ListDevicesCommand({ AccessToken: accessToken }))).Devices).toEqual([]);
    const forgotten = await signIn(email, device.deviceKey);
    expect(forgotten.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    // Answering the code from the forgotten browser makes it a new device, to be confirmed afresh.
    const again = (await answerTotp(forgotten, secret, device.deviceKey)).AuthenticationResult!;
    expect(again.NewDeviceMetadata?.DeviceKey).not.toBe(device.deviceKey);
  });

  it("never lets one person's device key stand in for another's second factor", async () => {
    const owner = await personWithTotp();
    await send().send(
      new UpdateDeviceStatusCommand({
        AccessToken: owner.accessToken,
        DeviceKey: owner.device.deviceKey,
        DeviceRememberedStatus: 'remembered',
      }),
    );
    const other = await personWithTotp();
    const challenge = await signIn(other.email, owner.device.deviceKey);
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    // Nor list, remember or forget it.
    await expect(
      send().send(new ForgetDeviceCommand({ AccessToken: other.accessToken, DeviceKey: owner.device.deviceKey })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    const owners = (await send().send(new ListDevicesCommand({ AccessToken: owner.accessToken }))).Devices ?? [];
    expect(owners.map((d) => d.DeviceKey)).toEqual([owner.device.deviceKey]);
  });

  it('refuses the device operations without a valid access token', async () => {
    await expect(send().send(new ListDevicesCommand({ AccessToken: 'not-a-token' }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });
});
