import { ConfirmSignUpCommand, ResendConfirmationCodeCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { codeFromMail, mailTo } from '../../support/mail';
import { cognitoClient, documentClient, stack, uniqueId } from '../../support/stack';
import { freshUser, passwordSignIn, recordedEvents } from './identity-support';

const resend = (email: string) =>
  cognitoClient().send(new ResendConfirmationCodeCommand({ ClientId: stack().auth.clientId, Username: email }));
const confirm = (email: string, code: string) =>
  cognitoClient().send(
    new ConfirmSignUpCommand({ ClientId: stack().auth.clientId, Username: email, ConfirmationCode: code }),
  );

describe('sign-up confirmation at the local identity provider', () => {
  it('resends a new code by e-mail, which confirms the sign-up', async () => {
    const { email } = await freshUser({ confirm: false });
    const first = await codeFromMail(email, 1);
    await expect(passwordSignIn(email)).rejects.toMatchObject({ name: 'UserNotConfirmedException' });

    const { CodeDeliveryDetails } = await resend(email);
    expect(CodeDeliveryDetails).toEqual({
      DeliveryMedium: 'EMAIL',
      AttributeName: 'email',
      Destination: `${email[0]}***@e***`,
    });
    const second = await codeFromMail(email, 2);
    // The resent code replaces the first (the two are random and almost never equal).
    if (second !== first) await expect(confirm(email, first)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await confirm(email, second);

    await expect(passwordSignIn(email)).resolves.toHaveProperty('AuthenticationResult.AccessToken');
    await expect(resend(email)).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'User is already confirmed.',
    });
  });

  it('answers a resend to an unknown user as to a real one, sending nothing (user-existence errors prevented)', async () => {
    const email = `${uniqueId('nobody')}@example.com`;
    await expect(resend(email)).resolves.toMatchObject({ CodeDeliveryDetails: { DeliveryMedium: 'EMAIL' } });
    expect(await mailTo(email)).toEqual([]);
  });

  it('records a confirmed sign-up as a SignUp auth event and creates the platform record', async () => {
    const { email, sub } = await freshUser({ confirm: false });
    expect(await recordedEvents(sub)).toEqual([]);
    await confirm(email, await codeFromMail(email));

    const events = await recordedEvents(sub);
    expect(events).toEqual([
      expect.objectContaining({ userId: sub, type: 'SignUp', response: 'Pass', source: 'platform' }),
    ]);
    expect(events[0]!.eventKey).toBe(`${String(events[0]!.time).padStart(15, '0')}#${events[0]!.id}`);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: stack().tables.users, Key: { id: sub }, ConsistentRead: true }),
    );
    expect(Item).toMatchObject({
      id: sub,
      email,
      givenName: 'Ada',
      familyName: 'Lovelace',
      metadata: { email },
      rolesList: [],
      cartItems: [],
    });
  });
});
