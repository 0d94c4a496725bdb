import {
  CODE_TTL_MS,
  checkAuthorize,
  createCodeStore,
  hostedClientOf,
  onList,
  pkceMatches,
  redirectWith,
  s256,
} from './hosted-rules';

const client = hostedClientOf('client-1', [
  'http://localhost:5173',
  'http://localhost:41234/',
  'http://localhost:5173',
]);
const verifier = 'v'.repeat(43);
const challenge = s256(verifier);
const request = (overrides: Record<string, string | undefined> = {}) => {
  const query = new URLSearchParams();
  const fields = {
    response_type: 'code',
    client_id: 'client-1',
    redirect_uri: 'http://localhost:5173/auth/callback',
    state: 'st-1',
    scope: 'openid email profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) query.set(name, value);
  return query;
};

describe('the hosted client', () => {
  it('lists each web origin once, with the callback and sign-out paths', () => {
    expect(client.callbackUrls).toEqual([
      'http://localhost:5173/auth/callback',
      'http://localhost:41234/auth/callback',
    ]);
    expect(client.signOutUrls).toEqual(['http://localhost:5173/login', 'http://localhost:41234/login']);
  });

  it('matches URLs exactly: no prefix, suffix, case or trailing-slash leeway', () => {
    expect(onList('http://localhost:5173/auth/callback', client.callbackUrls)).toBe(true);
    for (const near of [
      'http://localhost:5173/auth/callback/',
      'http://localhost:5173/auth/callback?x=1',
      'http://localhost:5173/auth/callbackx',
      'http://LOCALHOST:5173/auth/callback',
      'http://127.0.0.1:5173/auth/callback',
      'http://localhost:5173.evil.example/auth/callback',
      'http://localhost:5173/auth/Callback',
    ]) {
      expect(onList(near, client.callbackUrls)).toBe(false);
    }
    expect(onList(undefined, client.callbackUrls)).toBe(false);
  });
});

describe('PKCE (S256)', () => {
  it('accepts the verifier of the challenge and nothing else', () => {
    // RFC 7636 appendix B's example.
    expect(
      pkceMatches('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    ).toBe(true);
    expect(pkceMatches(verifier, challenge)).toBe(true);
    expect(pkceMatches('w'.repeat(43), challenge)).toBe(false);
    expect(pkceMatches(undefined, challenge)).toBe(false);
    expect(pkceMatches('', challenge)).toBe(false);
    // The challenge itself is not a verifier ("plain" is not allowed).
    expect(pkceMatches(challenge, challenge)).toBe(false);
    expect(pkceMatches('short', s256('short'))).toBe(false);
  });
});

describe('checkAuthorize', () => {
  it('accepts a complete request', () => {
    expect(checkAuthorize(request(), client)).toEqual({
      kind: 'ok',
      params: {
        clientId: 'client-1',
        redirectUri: 'http://localhost:5173/auth/callback',
        state: 'st-1',
        scopes: ['openid', 'email', 'profile'],
        codeChallenge: challenge,
      },
    });
  });

  it('never redirects for an unknown client or a redirect URI off the list', () => {
    for (const query of [
      request({ client_id: 'other' }),
      request({ client_id: undefined }),
      request({ redirect_uri: 'https://evil.example/auth/callback' }),
      request({ redirect_uri: undefined }),
      request({ redirect_uri: 'http://localhost:5173/auth/callback/' }),
    ]) {
      expect(checkAuthorize(query, client)).toMatchObject({ kind: 'page' });
    }
    expect(checkAuthorize(request(), undefined)).toMatchObject({ kind: 'page' });
    const twice = request();
    twice.append('redirect_uri', 'https://evil.example/auth/callback');
    expect(checkAuthorize(twice, client)).toMatchObject({ kind: 'page' });
  });

  it.each([
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ response_type: undefined }, 'invalid_request'],
    [{ code_challenge: undefined }, 'invalid_request'],
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge_method: undefined }, 'invalid_request'],
    [{ scope: 'openid phone' }, 'invalid_scope'],
    [{ scope: '' }, 'invalid_scope'],
    [{ identity_provider: 'Google' }, 'invalid_request'],
  ])('redirects other errors to the listed URI with the state: %j → %s', (overrides, error) => {
    expect(checkAuthorize(request(overrides), client)).toMatchObject({
      kind: 'redirect',
      redirectUri: 'http://localhost:5173/auth/callback',
      error,
      state: 'st-1',
    });
  });

  it('lets through an identity provider enabled for the client, by its exact name, and COGNITO as the pool itself', () => {
    const enabled = ['NorthsideAir'];
    expect(checkAuthorize(request({ identity_provider: 'NorthsideAir' }), client, enabled)).toMatchObject({
      kind: 'ok',
      params: { identityProvider: 'NorthsideAir', state: 'st-1' },
    });
    const own = checkAuthorize(request({ identity_provider: 'COGNITO' }), client, enabled);
    expect(own).toMatchObject({ kind: 'ok' });
    expect(own.kind === 'ok' && 'identityProvider' in own.params).toBe(false);
    expect(checkAuthorize(request({ identity_provider: 'northsideair' }), client, enabled)).toMatchObject({
      kind: 'redirect',
      error: 'invalid_request',
    });
  });

  it('refuses a missing state with invalid_request', () => {
    expect(checkAuthorize(request({ state: undefined }), client)).toEqual({
      kind: 'redirect',
      redirectUri: 'http://localhost:5173/auth/callback',
      error: 'invalid_request',
      description: 'state is required',
    });
  });

  it('grants the allowed scopes when none is asked for, and a subset when one is', () => {
    expect(checkAuthorize(request({ scope: undefined }), client)).toMatchObject({
      params: { scopes: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'] },
    });
    expect(checkAuthorize(request({ scope: 'openid email' }), client)).toMatchObject({
      params: { scopes: ['openid', 'email'] },
    });
  });

  it('puts code, error and state into the redirect URI unchanged', () => {
    const state = 'a b&c=d/é';
    const url = new URL(redirectWith('http://localhost:5173/auth/callback', { code: 'c1', state }));
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.origin + url.pathname).toBe('http://localhost:5173/auth/callback');
  });
});

describe('the code store', () => {
  const grant = { clientId: 'client-1', redirectUri: 'r', codeChallenge: challenge, scopes: ['openid'], tokens: 'T' };

  it('hands out random codes that are good once', () => {
    const codes = createCodeStore<string>();
    const code = codes.issue(grant);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes.issue(grant)).not.toBe(code);
    expect(codes.redeem(code)).toEqual(expect.objectContaining(grant));
    expect(codes.redeem(code)).toBeUndefined();
  });

  it("expires a code after Cognito's 5 minutes, and a reused code spends no other", () => {
    let now = 1_000_000;
    const codes = createCodeStore<string>({ now: () => now });
    expect(CODE_TTL_MS).toBe(300_000);
    const early = codes.issue(grant);
    const late = codes.issue(grant);
    now += CODE_TTL_MS - 1;
    expect(codes.redeem(early)).toBeDefined();
    expect(codes.redeem(early)).toBeUndefined();
    now += 1;
    expect(codes.redeem(late)).toBeUndefined();
    const fresh = codes.issue(grant);
    expect(codes.size()).toBe(1);
    expect(codes.redeem('made-up')).toBeUndefined();
    expect(codes.redeem(fresh)).toBeDefined();
  });
});
