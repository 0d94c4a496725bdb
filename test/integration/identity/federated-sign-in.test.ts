import { randomBytes } from 'node:crypto';
import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { FEDERATED_SIGN_IN_TARGET } from '../../../infra/local/cognito-compat/federated-users';
import { DEMO_IDP_PASSWORD } from '../../../infra/local/emulators/demo-idp-accounts';
import { DEMO_IDENTITY_PROVIDER } from '../../../shared/auth/demo-identity-provider';
import { FEDERATED_ACCOUNT_EXISTS } from '../../../shared/auth/federated-sign-in';
import { HOSTED_ENDPOINTS } from '../../../shared/auth/hosted-sign-in';
import { apiAs, cognitoClient, stack } from '../../support/stack';
import {
  cookieJar,
  federatedAuthorizeUrl,
  federatedCallback,
  federatedTokens,
  go,
  layer,
  locationOf,
  postForm,
  ROSA,
  toIdpResponse,
  toProviderPage,
} from './federation-support';
import { clientId, newPkce } from './identity-support';

/**
 * "Sign in with Northside Air Network" with no cloud (issue 21, docs/decisions/038): the web client's authorize
 * request names the demo organization's provider, the browser signs in at that provider's own page, and the local
 * identity layer federates: created, found again, linked or refused. The browser is federation-support.ts's.
 */

const userOf = (username: string) =>
  cognitoClient().send(new AdminGetUserCommand({ UserPoolId: stack().auth.userPoolId, Username: username }));
const attributesOf = (user: Awaited<ReturnType<typeof userOf>>) =>
  Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name, a.Value]));

describe('sign-in through the demo organization’s identity provider', () => {
  it('the provider serves its own small, labelled sign-in page and shows it again after a wrong password', async () => {
    const jar = cookieJar();
    const { interaction, html } = await toProviderPage(jar, newPkce().challenge);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Sign in to Northside Air Network</h1>');
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).not.toContain('<script');

    const wrong = await postForm(jar, interaction, { email: ROSA, password: 'Not-The-Passw0rd' });
    expect(wrong.status).toBe(400);
    const again = await wrong.text();
    expect(again).toContain('Incorrect e-mail or password.');
    expect(again).toContain(`value="${ROSA}"`);
    // The same interaction goes on with the right password.
    const right = await postForm(jar, interaction, { email: ROSA, password: DEMO_IDP_PASSWORD });
    expect(right.status).toBe(303);
  });

  it('a person with no platform account is created as the provider’s user, signed in, and found again next time', async () => {
    const first = await federatedTokens(ROSA);
    const username = `${DEMO_IDENTITY_PROVIDER.name}_nsa-rosa-rivera`;
    expect(first.access.username).toBe(username);
    expect(first.id).toMatchObject({ email: ROSA, tokenUse: 'id' });
    const user = await userOf(username);
    expect(user.UserStatus).toBe('EXTERNAL_PROVIDER');
    expect(attributesOf(user)).toMatchObject({
      email: ROSA,
      email_verified: 'true',
      given_name: 'Rosa',
      family_name: 'Rivera',
    });
    expect(JSON.parse(attributesOf(user).identities ?? '[]')).toEqual([
      expect.objectContaining({ providerName: DEMO_IDENTITY_PROVIDER.name, userId: 'nsa-rosa-rivera' }),
    ]);
    // A federated person joins Authenticated_users at their first sign-in (the PostConfirmation trigger, decision 037).
    const groups = await cognitoClient().send(
      new AdminListGroupsForUserCommand({ UserPoolId: stack().auth.userPoolId, Username: username }),
    );
    expect((groups.Groups ?? []).map((group) => group.GroupName)).toEqual(['Authenticated_users']);
    // The platform has the person's record, as after a sign-up, and the API takes the token.
    await expect(
      apiAs('users', first.tokens.access_token).getUser({ params: { id: first.access.sub } }),
    ).resolves.toMatchObject({ email: ROSA });
    // Tokens like any sign-in's: they name their refresh token, which refreshes.
    const refreshed = await fetch(`${layer()}${HOSTED_ENDPOINTS.token}`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: clientId(),
        refresh_token: first.tokens.refresh_token,
      }),
    });
    expect(refreshed.status).toBe(200);

    const second = await federatedTokens(ROSA);
    expect(second.access.sub).toBe(first.access.sub);
    expect(second.access.username).toBe(username);

    // A password sign-up of the address the provider's login holds is refused: it could never be linked afterwards
    // (decision 037). In the cloud the PreSignUp trigger refuses it with FEDERATED_ACCOUNT_EXISTS; here cognito-local
    // does, the address being the federated user's e-mail alias (lambda-triggers.ts).
    await expect(
      cognitoClient().send(
        new SignUpCommand({
          ClientId: clientId(),
          Username: ROSA,
          Password: 'Fresh-Passw0rd-1',
          UserAttributes: [{ Name: 'email', Value: ROSA }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'UsernameExistsException' });

    // A disabled federated user is refused as a disabled password user is, in Cognito's words.
    const pool = { UserPoolId: stack().auth.userPoolId, Username: username };
    await cognitoClient().send(new AdminDisableUserCommand(pool));
    try {
      const params = await federatedCallback(ROSA, newPkce().challenge, 'state-disabled');
      expect(params.get('code')).toBeNull();
      expect(params.get('error')).toBe('access_denied');
      expect(params.get('error_description')).toBe('User is disabled.');
      expect(params.get('state')).toBe('state-disabled');
    } finally {
      await cognitoClient().send(new AdminEnableUserCommand(pool));
    }
  });

  it('a person whose verified e-mail has a platform account is linked to it, and goes straight there next time', async () => {
    const native = await userOf('approved@example.com');
    const nativeSub = attributesOf(native).sub;
    const first = await federatedTokens('approved@example.com');
    expect(first.access.sub).toBe(nativeSub);
    expect(first.access.username).toBe(native.Username);
    // The account's own groups come with it.
    expect(first.access.groups).toEqual(['Approved_users']);
    const identities = JSON.parse(attributesOf(await userOf(native.Username ?? '')).identities ?? '[]');
    expect(identities).toEqual([
      expect.objectContaining({ providerName: DEMO_IDENTITY_PROVIDER.name, userId: 'nsa-april-approved' }),
    ]);
    // No federated user was made beside it.
    await expect(userOf(`${DEMO_IDENTITY_PROVIDER.name}_nsa-april-approved`)).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });
    const second = await federatedTokens('approved@example.com');
    expect(second.access.sub).toBe(nativeSub);
  });

  it('a person whose e-mail has an account but whom the provider has not verified is refused, with what to do', async () => {
    const { challenge } = newPkce();
    const params = await federatedCallback('user@example.com', challenge, 'app-state-unverified');
    expect(params.get('code')).toBeNull();
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('error_description')).toBe(FEDERATED_ACCOUNT_EXISTS);
    expect(params.get('state')).toBe('app-state-unverified');
    const native = await userOf('user@example.com');
    expect(attributesOf(native).identities).toBeUndefined();
  });

  it('the provider’s answer is taken once, for the browser that was sent there, and never for a made-up state', async () => {
    const { challenge } = newPkce();
    const jar = cookieJar();
    const back = await toIdpResponse(jar, ROSA, challenge);
    const url = new URL(back);

    // Another browser (no state cookie) with the real answer: refused, and the sign-in is spent.
    const elsewhere = await fetch(back, { redirect: 'manual' });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('started in another browser');
    const spent = await go(jar, back);
    expect(spent.status).toBe(400);
    expect(await spent.text()).toContain('unknown or has expired');

    // A state the layer never sent.
    const madeUp = new URL(url);
    madeUp.searchParams.set('state', randomBytes(32).toString('base64url'));
    const unknown = await go(jar, madeUp.toString());
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
  });

  it('a code of another sign-in is refused at the provider (PKCE), and the app is told without a code', async () => {
    const { challenge } = newPkce();
    const jarA = cookieJar();
    const jarB = cookieJar();
    const backA = new URL(await toIdpResponse(jarA, ROSA, challenge, 'state-a'));
    const backB = new URL(await toIdpResponse(jarB, ROSA, challenge, 'state-b'));
    // B's code under A's state (and A's browser): the layer's verifier for A does not fit B's code.
    const swapped = new URL(backA);
    swapped.searchParams.set('code', backB.searchParams.get('code') ?? '');
    const answer = await go(jarA, swapped.toString());
    expect(answer.status).toBe(302);
    const location = new URL(locationOf(answer, layer()));
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('state-a');
  });

  it('refuses a provider the client has not enabled, and the layer’s own federated sign-in from outside', async () => {
    const refused = await fetch(federatedAuthorizeUrl(newPkce().challenge, 'state-x', 'Google'), {
      redirect: 'manual',
    });
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');

    const outside = await fetch(layer(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${FEDERATED_SIGN_IN_TARGET}`,
      },
      body: JSON.stringify({ ClientId: clientId(), Identity: { provider: 'NorthsideAir', sub: 'x', email: 'a@b.c' } }),
    });
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({ __type: 'UnknownOperationException' });
  });
});
