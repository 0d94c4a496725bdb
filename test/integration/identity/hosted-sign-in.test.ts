import { randomBytes } from 'node:crypto';
import {
  AssociateSoftwareTokenCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startCognitoCompat } from '../../../infra/local/cognito-compat';
import { CODE_TTL_MS } from '../../../infra/local/cognito-compat/hosted-rules';
import { HOSTED_ENDPOINTS, hostedUrlsOf } from '../../../shared/auth/hosted-sign-in';
import { apiAs, cognitoClient, stack } from '../../support/stack';
import { freshTotp } from '../../support/totp';
import {
  authorizeUrl,
  callbackUrl,
  clientId,
  freshUser,
  newPkce,
  PASSWORD,
  tokensOf,
  webOrigin,
} from './identity-support';

/**
 * The hosted sign-in of the local identity layer (issue 21), as a browser and the web app's OAuth client use it:
 * plain fetch, redirects not followed, against the running local stack.
 */

const front = () => stack().endpoints.cognito;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, name, value]) => [
      name,
      (value ?? '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity),
    ]),
  );

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(fields), headers, redirect: 'manual' });

/** A person at the sign-in page: GET it, fill in e-mail and password, submit. Answers the form's response. */
const submitSignIn = async (
  { email, password = PASSWORD, state = 'state-1' }: { email: string; password?: string; state?: string },
  challenge: string,
  base = front(),
) => {
  const page = await fetch(authorizeUrl(challenge, { state }, base), { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  return {
    page,
    html,
    response: await postForm(`${base}${HOSTED_ENDPOINTS.authorize}`, {
      ...hiddenFields(html),
      username: email,
      password,
    }),
  };
};

/** Signs in through the form and answers the callback URL's code and state. */
const codeFor = async (email: string, challenge: string, state = 'state-1', base = front()) => {
  const { response } = await submitSignIn({ email, state }, challenge, base);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(callbackUrl());
  return { code: location.searchParams.get('code') ?? '', state: location.searchParams.get('state'), location };
};

const exchange = (fields: Record<string, string>, base = front()) =>
  postForm(
    `${base}${HOSTED_ENDPOINTS.token}`,
    { grant_type: 'authorization_code', client_id: clientId(), redirect_uri: callbackUrl(), ...fields },
    { origin: webOrigin() },
  );

const errorOf = async (response: Response) => ({ status: response.status, body: await response.json() });

const userInfo = (accessToken?: string) =>
  fetch(`${front()}${HOSTED_ENDPOINTS.userInfo}`, {
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
  });

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

describe('hosted sign-in at the local identity layer', () => {
  it('a person signs in through the page, the client exchanges the code with its verifier, and the API takes the token', async () => {
    const { email, sub } = await freshUser();
    const { verifier, challenge } = newPkce();
    // The state comes back exactly as sent, special characters and all: comparing it is the client's check.
    const state = `s/${randomBytes(8).toString('hex')}?&= é`;

    const page = await fetch(authorizeUrl(challenge, { state }), { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toContain(`<form method="post" action="${HOSTED_ENDPOINTS.authorize}"`);
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).not.toContain('<script');

    const wrong = await postForm(`${front()}${HOSTED_ENDPOINTS.authorize}`, {
      ...hiddenFields(html),
      username: email,
      password: 'Wrong-Passw0rd-9',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('Incorrect username or password.');

    const { code, state: returned, location } = await codeFor(email, challenge, state);
    expect(returned).toBe(state);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The browser lands on the web app's callback route.
    expect((await fetch(location)).status).toBe(200);

    const response = await exchange({ code, code_verifier: verifier });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(webOrigin());
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(tokens).toEqual({
      access_token: expect.any(String),
      id_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const accessToken = String(tokens.access_token);
    // As every sign-in's tokens: they name their refresh token (revocation) and the pool's issuer and client.
    expect(claimsOf(accessToken)).toMatchObject({
      origin_jti: claimsOf(String(tokens.refresh_token)).jti,
      iss: stack().auth.issuer,
      client_id: clientId(),
      token_use: 'access',
      sub,
    });
    expect(claimsOf(String(tokens.id_token))).toMatchObject({ aud: clientId(), email, token_use: 'id' });

    // A real route of the platform: the person's own identity in the users area.
    await expect(apiAs('users', accessToken).getUser({ params: { id: sub } })).resolves.toMatchObject({ email });

    const info = await userInfo(accessToken);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({
      sub,
      email,
      // Cognito's userInfo answers attributes as strings; AdminConfirmSignUp verifies no e-mail.
      email_verified: 'false',
      given_name: 'Ada',
      family_name: 'Lovelace',
      username: expect.any(String),
    });
  });

  it('refuses a wrong verifier (and the code is spent), a missing verifier (the code is not), and a reused code', async () => {
    const { email } = await freshUser();
    const { verifier, challenge } = newPkce();

    const first = await codeFor(email, challenge);
    expect(await errorOf(await exchange({ code: first.code, code_verifier: newPkce().verifier }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await errorOf(await exchange({ code: first.code, code_verifier: verifier }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });

    const second = await codeFor(email, challenge);
    expect(await errorOf(await exchange({ code: second.code }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    const good = await exchange({ code: second.code, code_verifier: verifier });
    expect(good.status).toBe(200);
    const { access_token: accessToken } = (await good.json()) as { access_token: string };

    // Reused: refused, and the tokens the code gave stay good.
    expect(await errorOf(await exchange({ code: second.code, code_verifier: verifier }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await userInfo(accessToken)).status).toBe(200);
    expect(await errorOf(await exchange({ code: 'made-up-code', code_verifier: verifier }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('never redirects to a redirect URI off the list; at the token endpoint only the authorize request’s URI is good', async () => {
    const { email } = await freshUser();
    const { verifier, challenge } = newPkce();
    for (const redirectUri of [
      'https://evil.example/auth/callback',
      `${webOrigin()}/auth/callback/`,
      `${webOrigin()}/elsewhere`,
      `${callbackUrl()}?next=https://evil.example`,
    ]) {
      const response = await fetch(authorizeUrl(challenge, { redirect_uri: redirectUri }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
    const unknownClient = await fetch(authorizeUrl(challenge, { client_id: 'someone-else' }), { redirect: 'manual' });
    expect([unknownClient.status, unknownClient.headers.get('location')]).toEqual([400, null]);

    // Vite's dev origin is on the list too; a code asked for the stack's web origin is not good for it.
    const { code } = await codeFor(email, challenge);
    for (const redirectUri of ['http://localhost:5173/auth/callback', 'https://evil.example/auth/callback']) {
      expect(await errorOf(await exchange({ code, code_verifier: verifier, redirect_uri: redirectUri }))).toMatchObject(
        { status: 400, body: { error: 'invalid_grant' } },
      );
    }
  });

  it('answers other authorize errors at the listed redirect URI with the state; a missing state is invalid_request', async () => {
    const { challenge } = newPkce();
    const refusedWith = async (overrides: Record<string, string | undefined>) => {
      const response = await fetch(authorizeUrl(challenge, overrides), { redirect: 'manual' });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(callbackUrl());
      expect(location.searchParams.get('code')).toBeNull();
      return [location.searchParams.get('error'), location.searchParams.get('state')];
    };
    expect(await refusedWith({ state: undefined })).toEqual(['invalid_request', null]);
    expect(await refusedWith({ response_type: 'token' })).toEqual(['unsupported_response_type', 'state-1']);
    expect(await refusedWith({ code_challenge: undefined })).toEqual(['invalid_request', 'state-1']);
    expect(await refusedWith({ code_challenge_method: 'plain' })).toEqual(['invalid_request', 'state-1']);
    expect(await refusedWith({ scope: 'openid phone' })).toEqual(['invalid_scope', 'state-1']);
  });

  it('the sign-in form refuses a post from another site and re-checks the fields it carries', async () => {
    const { email } = await freshUser();
    const { challenge } = newPkce();
    const { html } = await submitSignIn({ email }, challenge);
    const fields = { ...hiddenFields(html), username: email, password: PASSWORD };
    const foreign = await postForm(`${front()}${HOSTED_ENDPOINTS.authorize}`, fields, {
      origin: 'https://evil.example',
    });
    expect([foreign.status, foreign.headers.get('location')]).toEqual([403, null]);
    const tampered = await postForm(`${front()}${HOSTED_ENDPOINTS.authorize}`, {
      ...fields,
      redirect_uri: 'https://evil.example/auth/callback',
    });
    expect([tampered.status, tampered.headers.get('location')]).toEqual([400, null]);
  });

  it('the token endpoint takes form-encoded requests of the known client and grants only', async () => {
    const token = `${front()}${HOSTED_ENDPOINTS.token}`;
    const json = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', client_id: clientId() }),
    });
    expect(await errorOf(json)).toEqual({ status: 400, body: expect.objectContaining({ error: 'invalid_request' }) });
    expect(await errorOf(await postForm(token, { grant_type: 'password', client_id: clientId() }))).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect(
      await errorOf(await postForm(token, { grant_type: 'refresh_token', client_id: 'other', refresh_token: 'x' })),
    ).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
  });

  it('refreshes through the token endpoint; a revoked refresh token is invalid_grant and its access token invalid at userInfo', async () => {
    const { email } = await freshUser();
    const { verifier, challenge } = newPkce();
    const { code } = await codeFor(email, challenge);
    const tokens = (await (await exchange({ code, code_verifier: verifier })).json()) as Record<string, string>;
    const refresh = () =>
      postForm(`${front()}${HOSTED_ENDPOINTS.token}`, {
        grant_type: 'refresh_token',
        client_id: clientId(),
        refresh_token: tokens.refresh_token ?? '',
      });

    const refreshed = await refresh();
    expect(refreshed.status).toBe(200);
    const body = (await refreshed.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.any(String),
      id_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    expect(claimsOf(String(body.access_token)).origin_jti).toBe(claimsOf(tokens.refresh_token ?? '').jti);

    // An ID token is not taken for an access token.
    expect((await userInfo(tokens.id_token)).status).toBe(401);
    expect((await userInfo(tokens.access_token)).status).toBe(200);

    await cognitoClient().send(new RevokeTokenCommand({ ClientId: clientId(), Token: tokens.refresh_token }));

    expect(await errorOf(await refresh())).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    for (const accessToken of [tokens.access_token, String(body.access_token)]) {
      const info = await userInfo(accessToken);
      expect(info.status).toBe(401);
      expect(await info.json()).toEqual({ error: 'invalid_token' });
    }
    expect((await userInfo()).status).toBe(401);
    expect((await userInfo(`${tokens.access_token?.slice(0, -4)}AAAA`)).status).toBe(401);
    // The person's other sessions go on.
    expect((await userInfo((await tokensOf(email)).accessToken)).status).toBe(200);
  });

  it('names its hosted endpoints in the pool discovery document, and a relying party that discovers them signs in, reads, revokes and logs out', async () => {
    const { issuer } = stack().auth;
    const discovered = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(discovered.status).toBe(200);
    const doc = (await discovered.json()) as Record<string, string>;
    // As Cognito's once the pool has a domain: the hosted endpoints on the domain's origin, the keys under the issuer.
    expect(doc).toMatchObject({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      authorization_endpoint: `${front()}/oauth2/authorize`,
      token_endpoint: `${front()}/oauth2/token`,
      userinfo_endpoint: `${front()}/oauth2/userInfo`,
      revocation_endpoint: `${front()}/oauth2/revoke`,
      end_session_endpoint: `${front()}/logout`,
      response_types_supported: expect.arrayContaining(['code']),
      id_token_signing_alg_values_supported: ['RS256'],
    });

    // The relying party from here on knows only the document: every URL below is one it named.
    const { email, sub } = await freshUser();
    const { verifier, challenge } = newPkce();
    const authorize = new URL(doc.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: clientId(),
      redirect_uri: callbackUrl(),
      state: 'rp-state',
      scope: 'openid email profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })) {
      authorize.searchParams.set(name, value);
    }
    const page = await fetch(authorize, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const form = hiddenFields(await page.text());
    const signedIn = await postForm(doc.authorization_endpoint!, { ...form, username: email, password: PASSWORD });
    const back = new URL(signedIn.headers.get('location') ?? '');
    expect([signedIn.status, back.searchParams.get('state')]).toEqual([302, 'rp-state']);

    const exchanged = await postForm(
      doc.token_endpoint!,
      {
        grant_type: 'authorization_code',
        client_id: clientId(),
        redirect_uri: callbackUrl(),
        code: back.searchParams.get('code') ?? '',
        code_verifier: verifier,
      },
      { origin: webOrigin() },
    );
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as Record<string, string>;
    // The ID token verifies against the discovered keys, for this issuer and client.
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(doc.jwks_uri!)), {
      issuer: doc.issuer,
      audience: clientId(),
    });
    expect(payload.sub).toBe(sub);
    const info = await fetch(doc.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect([info.status, ((await info.json()) as { sub?: string }).sub]).toEqual([200, sub]);

    // Revoked at the discovered endpoint: the refresh token no longer refreshes, its access token no longer reads.
    const revoked = await postForm(doc.revocation_endpoint!, { token: tokens.refresh_token!, client_id: clientId() });
    expect([revoked.status, await revoked.text()]).toEqual([200, '']);
    const refresh = await postForm(doc.token_endpoint!, {
      grant_type: 'refresh_token',
      client_id: clientId(),
      refresh_token: tokens.refresh_token!,
    });
    expect(await errorOf(refresh)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(
      (await fetch(doc.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status,
    ).toBe(401);
    // RFC 7009: a token that is no longer good is answered as revoked; an unknown client is not.
    expect(
      (await postForm(doc.revocation_endpoint!, { token: tokens.refresh_token!, client_id: clientId() })).status,
    ).toBe(200);
    expect(
      await errorOf(await postForm(doc.revocation_endpoint!, { token: tokens.refresh_token!, client_id: 'other' })),
    ).toEqual({ status: 401, body: { error: 'invalid_client' } });
    expect(await errorOf(await postForm(doc.revocation_endpoint!, { client_id: clientId() }))).toEqual({
      status: 400,
      body: { error: 'invalid_request' },
    });

    // The end-session endpoint, with Cognito's parameters, sends the browser back to the listed sign-out URL.
    const end = new URL(doc.end_session_endpoint!);
    end.searchParams.set('client_id', clientId());
    end.searchParams.set('logout_uri', hostedUrlsOf(webOrigin()).signOutUrl);
    const ended = await fetch(end, { redirect: 'manual' });
    expect([ended.status, ended.headers.get('location')]).toEqual([302, hostedUrlsOf(webOrigin()).signOutUrl]);
  });

  it('logs out to a listed sign-out URL only', async () => {
    const logout = (params: Record<string, string>) =>
      fetch(`${front()}${HOSTED_ENDPOINTS.logout}?${new URLSearchParams(params)}`, { redirect: 'manual' });
    const listed = await logout({ client_id: clientId(), logout_uri: hostedUrlsOf(webOrigin()).signOutUrl });
    expect([listed.status, listed.headers.get('location')]).toEqual([302, hostedUrlsOf(webOrigin()).signOutUrl]);
    const refused: Record<string, string>[] = [
      { client_id: clientId(), logout_uri: 'https://evil.example/login' },
      { client_id: clientId(), logout_uri: `${webOrigin()}/login/` },
      { client_id: clientId() },
      { client_id: 'other', logout_uri: hostedUrlsOf(webOrigin()).signOutUrl },
    ];
    for (const params of refused) {
      const response = await logout(params);
      expect([response.status, response.headers.get('location')]).toEqual([400, null]);
    }
  });

  it('asks a person with an authenticator app for its code on a second form', async () => {
    const { email } = await freshUser();
    const { accessToken } = await tokensOf(email);
    const { SecretCode } = await cognitoClient().send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    await cognitoClient().send(
      new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: await freshTotp(SecretCode!) }),
    );
    await cognitoClient().send(
      new SetUserMFAPreferenceCommand({
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    const { verifier, challenge } = newPkce();
    const { response } = await submitSignIn({ email }, challenge);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<label for="code">');
    const answered = await postForm(`${front()}${HOSTED_ENDPOINTS.authorize}`, {
      ...hiddenFields(html),
      mfa_code: await freshTotp(SecretCode!),
    });
    expect(answered.status).toBe(302);
    const code = new URL(answered.headers.get('location') ?? '').searchParams.get('code') ?? '';
    expect((await exchange({ code, code_verifier: verifier })).status).toBe(200);
  });
});

describe('hosted sign-in codes expire after 5 minutes', () => {
  // The same layer in front of the running stack's identity provider, with a clock the test moves: no 5-minute wait.
  let now = Date.now();
  let layer: Awaited<ReturnType<typeof startCognitoCompat>>;
  beforeAll(async () => {
    layer = await startCognitoCompat({ port: 0, upstream: front(), now: () => now });
    layer.setHostedClient({ clientId: clientId(), webOrigins: [webOrigin()] });
  });
  afterAll(() => layer.stop());

  it('exchanges a code just inside the 5 minutes and refuses one past them with invalid_grant', async () => {
    const { email } = await freshUser();
    const { verifier, challenge } = newPkce();
    const inTime = await codeFor(email, challenge, 'state-1', layer.url);
    const late = await codeFor(email, challenge, 'state-1', layer.url);
    now += CODE_TTL_MS - 1_000;
    expect((await exchange({ code: inTime.code, code_verifier: verifier }, layer.url)).status).toBe(200);
    now += 1_000;
    expect(await errorOf(await exchange({ code: late.code, code_verifier: verifier }, layer.url))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });
});
