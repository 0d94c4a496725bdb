import { FEDERATED_ACCOUNT_EXISTS, preSignUpFailure } from '../../../shared/auth/federated-sign-in';
import { hostedSignInConfig } from '../../../shared/auth/hosted-sign-in';
import {
  authorizeUrl,
  callbackOutcome,
  HOSTED_MESSAGES,
  logoutUrl,
  type PendingSignIn,
  tokensOf,
  urlOnOrigin,
} from './hosted-sign-in-rules';

const config = hostedSignInConfig({
  origin: 'https://auth.example.com/',
  webOrigins: ['https://app.example.com', 'http://localhost:5173'],
  providers: [{ name: 'NorthsideAir', label: 'Northside Air Network' }],
});

const pending: PendingSignIn = {
  state: 's'.repeat(43),
  verifier: 'v'.repeat(43),
  destination: '/dashboard/cart?tab=1',
  redirectUri: 'https://app.example.com/auth/callback',
};

describe('the hosted sign-in URLs', () => {
  it("takes the callback and sign-out URL of the page's own origin, and none for another", () => {
    expect(urlOnOrigin(config.redirectSignIn, 'http://localhost:5173')).toBe('http://localhost:5173/auth/callback');
    expect(urlOnOrigin(config.redirectSignOut, 'https://app.example.com')).toBe('https://app.example.com/login');
    expect(urlOnOrigin(config.redirectSignIn, 'https://evil.example')).toBeUndefined();
  });

  it('asks for a code with an S256 challenge, the scopes and the state, and names a provider only when one is chosen', () => {
    const common = { config, clientId: 'web', redirectUri: pending.redirectUri, state: 'st', challenge: 'ch' };
    const hostedPage = new URL(authorizeUrl(common));
    expect(`${hostedPage.origin}${hostedPage.pathname}`).toBe('https://auth.example.com/oauth2/authorize');
    expect(Object.fromEntries(hostedPage.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'web',
      redirect_uri: 'https://app.example.com/auth/callback',
      scope: 'openid email profile aws.cognito.signin.user.admin',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
    expect(new URL(authorizeUrl({ ...common, provider: 'NorthsideAir' })).searchParams.get('identity_provider')).toBe(
      'NorthsideAir',
    );
  });

  it("logs out back to this origin's sign-out URL, and not at all from an origin the client does not list", () => {
    const url = new URL(logoutUrl(config, 'web', 'https://app.example.com')!);
    expect(`${url.origin}${url.pathname}`).toBe('https://auth.example.com/logout');
    expect(url.searchParams.get('client_id')).toBe('web');
    expect(url.searchParams.get('logout_uri')).toBe('https://app.example.com/login');
    expect(logoutUrl(config, 'web', 'https://other.example')).toBeUndefined();
  });
});

describe('the callback', () => {
  it('exchanges the code of the state this tab sent, going on to a safe destination only', () => {
    expect(callbackOutcome(`?code=abc&state=${pending.state}`, pending)).toEqual({
      kind: 'exchange',
      code: 'abc',
      pending,
    });
    const outcome = callbackOutcome(`?code=abc&state=${pending.state}`, { ...pending, destination: '//evil.example' });
    expect(outcome.kind === 'exchange' && outcome.pending.destination).toBe('/dashboard');
  });

  it.each([
    ['an altered state', `?code=abc&state=${'x'.repeat(43)}`, pending],
    ['no state', '?code=abc', pending],
    ['a callback this tab never started (or already finished)', `?code=abc&state=${pending.state}`, undefined],
    ['no code', `?state=${pending.state}`, pending],
  ])('exchanges nothing for %s', (_case, search, stored) => {
    expect(callbackOutcome(search, stored)).toEqual({
      kind: 'refused',
      message: HOSTED_MESSAGES.hostedSignInNotStarted,
    });
  });

  it("shows the hosted side's own words for its refusal of this tab's request, and only then", () => {
    const refusal = 'An account with this e-mail already exists.';
    const search = (state: string) =>
      `?${new URLSearchParams({ error: 'access_denied', error_description: refusal, state })}`;
    expect(callbackOutcome(search(pending.state), pending)).toEqual({ kind: 'refused', message: refusal });
    // Cognito's wording around the linking rule's refusal is dropped.
    const wrapped = `?${new URLSearchParams({ error: 'invalid_request', error_description: preSignUpFailure(FEDERATED_ACCOUNT_EXISTS), state: pending.state })}`;
    expect(callbackOutcome(wrapped, pending)).toEqual({ kind: 'refused', message: FEDERATED_ACCOUNT_EXISTS });
    // Anyone can link to /auth/callback: words of a request this tab did not send are not shown.
    expect(callbackOutcome(search('forged'), pending)).toEqual({
      kind: 'refused',
      message: HOSTED_MESSAGES.hostedSignInFailed,
    });
  });

  it("reads the token endpoint's answer or its error", () => {
    expect(tokensOf(200, { access_token: 'a', id_token: 'i', refresh_token: 'r' })).toEqual({
      access_token: 'a',
      id_token: 'i',
      refresh_token: 'r',
    });
    expect(tokensOf(400, { error: 'invalid_grant' })).toEqual({ error: 'invalid_grant' });
    expect(tokensOf(502, undefined)).toEqual({ error: 'HTTP 502' });
    expect(tokensOf(200, { error: 'odd' })).toEqual({ error: 'odd' });
  });
});
