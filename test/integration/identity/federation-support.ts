import { randomBytes } from 'node:crypto';
import { DEMO_IDP_PASSWORD } from '../../../infra/local/emulators/demo-idp-accounts';
import { DEMO_IDENTITY_PROVIDER, IDP_RESPONSE_PATH } from '../../../shared/auth/demo-identity-provider';
import { HOSTED_ENDPOINTS } from '../../../shared/auth/hosted-sign-in';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { stack } from '../../support/stack';
import { authorizeUrl, callbackUrl, clientId, newPkce, webOrigin } from './identity-support';

/**
 * A browser signing in through the demo organization's identity provider against the running local stack (issue 21,
 * docs/decisions/038): plain fetch with a small cookie jar, redirects followed by hand. Shared by the federation
 * tests and those that need a federated person (an organization's member list naming their provider).
 */

export const layer = () => stack().endpoints.cognito;
export const idp = () => {
  const url = stack().endpoints.demoIdp;
  if (!url) throw new Error('The test stack runs without the demo identity provider');
  return url;
};
/** Nobody on the platform until federation creates them. */
export const ROSA = 'rosa.rivera@northside-air.example.com';

/** A browser's cookies, by name and path (host-only: the layer and the provider share `localhost`, as in a browser). */
export const cookieJar = () => {
  const cookies = new Map<string, { value: string; path: string }>();
  return {
    header: (url: string) => {
      const { pathname } = new URL(url);
      return [...cookies]
        .filter(([, c]) => pathname.startsWith(c.path))
        .map(([name, c]) => `${name}=${c.value}`)
        .join('; ');
    },
    take: (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
        const name = pair.slice(0, pair.indexOf('='));
        const value = pair.slice(pair.indexOf('=') + 1);
        const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
        const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=.*1970/i.test(a));
        if (expired || !value) cookies.delete(name);
        else cookies.set(name, { value, path });
      }
    },
    get: (name: string) => cookies.get(name)?.value,
  };
};

export type Jar = ReturnType<typeof cookieJar>;

export const go = async (jar: Jar, url: string, init: RequestInit = {}) => {
  const cookie = jar.header(url);
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
  });
  jar.take(response);
  return response;
};

export const locationOf = (response: Response, base: string) =>
  new URL(response.headers.get('location') ?? '', base).toString();

/** The web app's authorize request naming an identity provider. */
export const federatedAuthorizeUrl = (
  challenge: string,
  state: string,
  provider: string = DEMO_IDENTITY_PROVIDER.name,
) => authorizeUrl(challenge, { state, identity_provider: provider }, layer());

/** From the app's authorize request to the provider's sign-in page: answers the page and where to post it. */
export const toProviderPage = async (jar: Jar, challenge: string, state = 'app-state-1') => {
  const toProvider = await go(jar, federatedAuthorizeUrl(challenge, state));
  expect(toProvider.status).toBe(302);
  const authorize = locationOf(toProvider, layer());
  expect(authorize.startsWith(`${idp()}/`)).toBe(true);
  const toInteraction = await go(jar, authorize);
  expect(toInteraction.status).toBe(303);
  const interaction = locationOf(toInteraction, idp());
  const page = await go(jar, interaction);
  expect(page.status).toBe(200);
  return { authorize, interaction, html: await page.text() };
};

export const postForm = (jar: Jar, url: string, fields: Record<string, string>) =>
  go(jar, url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Signs in at the provider and follows it back to the layer's idpresponse; answers that URL (not yet visited). */
export const toIdpResponse = async (jar: Jar, email: string, challenge: string, state = 'app-state-1') => {
  const { interaction } = await toProviderPage(jar, challenge, state);
  const signedIn = await postForm(jar, interaction, { email, password: DEMO_IDP_PASSWORD });
  expect(signedIn.status).toBe(303);
  const resumed = await go(jar, locationOf(signedIn, idp()));
  expect(resumed.status).toBe(303);
  const back = locationOf(resumed, idp());
  expect(back.startsWith(`${layer()}${IDP_RESPONSE_PATH}?`)).toBe(true);
  return back;
};

/** The whole flow to the web app's callback: answers the callback URL's parameters. */
export const federatedCallback = async (email: string, challenge: string, state = 'app-state-1') => {
  const jar = cookieJar();
  const back = await go(jar, await toIdpResponse(jar, email, challenge, state));
  expect(back.status).toBe(302);
  const location = new URL(locationOf(back, layer()));
  expect(`${location.origin}${location.pathname}`).toBe(callbackUrl());
  return location.searchParams;
};

export const exchange = async (code: string, verifier: string) => {
  const response = await fetch(`${layer()}${HOSTED_ENDPOINTS.token}`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId(),
      redirect_uri: callbackUrl(),
      code,
      code_verifier: verifier,
    }),
    headers: { origin: webOrigin() },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; id_token: string; refresh_token: string };
};

/** Signs in through the provider and exchanges the code: the tokens, verified as the API verifies them. */
export const federatedTokens = async (email: string) => {
  const { verifier, challenge } = newPkce();
  const state = `state-${randomBytes(6).toString('hex')}`;
  const params = await federatedCallback(email, challenge, state);
  expect(params.get('error')).toBeNull();
  expect(params.get('state')).toBe(state);
  const tokens = await exchange(params.get('code') ?? '', verifier);
  const verify = createTokenVerifier({ issuer: stack().auth.issuer, clientIds: [clientId()] });
  return { tokens, access: await verify(tokens.access_token), id: await verify(tokens.id_token) };
};
