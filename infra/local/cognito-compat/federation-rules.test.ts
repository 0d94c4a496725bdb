import { DEMO_IDENTITY_PROVIDER } from '../../../shared/auth/demo-identity-provider';
import { FEDERATED_ACCOUNT_EXISTS } from '../../../shared/auth/federated-sign-in';
import {
  createPendingFederations,
  decideFederatedSignIn,
  FEDERATION_TTL_MS,
  federatedUsername,
  identityOf,
  TRUSTED_FOR_LINKING,
} from './federation-rules';
import type { AuthorizeParams } from './hosted-rules';

const provider = DEMO_IDENTITY_PROVIDER.name;

describe("decideFederatedSignIn (the users area's linking rule, with this home's trusted providers)", () => {
  const identity = { provider, sub: 'nsa-1', email: 'ann@example.com', emailVerified: true };
  const account = { username: 'u-1', email: 'ann@example.com', federated: false, confirmed: true };

  it('creates a person with no platform account, verified or not', () => {
    expect(decideFederatedSignIn(identity, [])).toEqual({ kind: 'create' });
    expect(decideFederatedSignIn({ ...identity, emailVerified: false }, [])).toEqual({ kind: 'create' });
  });

  it('links to the confirmed account of the e-mail only for a trusted provider that verified the e-mail', () => {
    expect(TRUSTED_FOR_LINKING.has(provider)).toBe(true);
    expect(decideFederatedSignIn(identity, [account])).toEqual({
      kind: 'link',
      to: 'u-1',
      source: { providerName: provider, subject: 'nsa-1' },
    });
    const refused = { kind: 'refuse', message: FEDERATED_ACCOUNT_EXISTS };
    expect(decideFederatedSignIn({ ...identity, emailVerified: false }, [account])).toEqual(refused);
    expect(decideFederatedSignIn({ ...identity, provider: 'Elsewhere' }, [account])).toEqual(refused);
    expect(decideFederatedSignIn(identity, [{ ...account, confirmed: false }])).toEqual(refused);
    // Another provider's login of the same e-mail is no account to link to.
    expect(decideFederatedSignIn(identity, [{ ...account, federated: true }])).toEqual(refused);
  });
});

describe('identityOf', () => {
  it('reads the ID token’s claims, the e-mail in lower case and email_verified as a boolean or Cognito’s string', () => {
    expect(
      identityOf(provider, {
        sub: 's-1',
        email: 'Rosa@Example.com',
        email_verified: 'true',
        given_name: 'Rosa',
        family_name: 'Rivera',
      }),
    ).toEqual({
      provider,
      sub: 's-1',
      email: 'rosa@example.com',
      emailVerified: true,
      givenName: 'Rosa',
      familyName: 'Rivera',
    });
    expect(identityOf(provider, { sub: 's-1', email: 'a@b.c', email_verified: false })).toEqual({
      provider,
      sub: 's-1',
      email: 'a@b.c',
      emailVerified: false,
    });
    expect(identityOf(provider, { sub: 's-1', email: 'a@b.c' })?.emailVerified).toBe(false);
  });

  it('has no identity without a subject or an e-mail', () => {
    expect(identityOf(provider, { email: 'a@b.c' })).toBeUndefined();
    expect(identityOf(provider, { sub: 's-1' })).toBeUndefined();
    expect(identityOf(provider, { sub: 's-1', email: 42 })).toBeUndefined();
  });

  it('names a federated user as Cognito does', () => {
    expect(federatedUsername(provider, 's-1')).toBe('NorthsideAir_s-1');
  });
});

describe('createPendingFederations', () => {
  const params: AuthorizeParams = {
    clientId: 'c',
    redirectUri: 'http://localhost:5173/auth/callback',
    state: 'app',
    scopes: ['openid'],
    codeChallenge: 'x'.repeat(43),
  };
  const entry = { provider, params, nonce: 'n', codeVerifier: 'v' };

  it('answers a state once, with what was sent, and never a made-up one', () => {
    const store = createPendingFederations();
    const state = store.start(entry);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.start(entry)).not.toBe(state);
    expect(store.take('made-up')).toBeUndefined();
    expect(store.take(state)).toEqual(entry);
    expect(store.take(state)).toBeUndefined();
  });

  it('forgets a state past its time, and clears the old ones as new ones start', () => {
    let now = 0;
    const store = createPendingFederations({ now: () => now });
    const late = store.start(entry);
    const inTime = store.start(entry);
    now = FEDERATION_TTL_MS - 1;
    expect(store.take(inTime)).toEqual(entry);
    now = FEDERATION_TTL_MS;
    expect(store.take(late)).toBeUndefined();
    store.start(entry);
    now = 2 * FEDERATION_TTL_MS;
    store.start(entry);
    expect(store.size()).toBe(1);
  });
});
