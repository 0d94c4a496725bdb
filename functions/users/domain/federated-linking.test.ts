import fc from 'fast-check';
import { FEDERATED_ACCOUNT_EXISTS, FEDERATED_NO_EMAIL } from '../../../shared/auth/federated-sign-in';
import {
  decideFederatedSignUp,
  decideNativeSignUp,
  type ExistingAccount,
  emailVerifiedOf,
  type FederatedSignUp,
  providerLoginOf,
} from './federated-linking';

const TRUSTED = ['Google', 'NorthsideAir'];
const signUp = (attributes: FederatedSignUp['attributes'], userName = 'NorthsideAir_abc123'): FederatedSignUp => ({
  userName,
  attributes,
});
const verified = { email: 'ada@example.com', email_verified: 'true', given_name: 'Ada', family_name: 'Lovelace' };
const native = (email = 'ada@example.com', confirmed = true): ExistingAccount & { email: string } => ({
  username: 'ada-native-sub',
  email,
  federated: false,
  confirmed,
});
const refused = { kind: 'refuse', message: FEDERATED_ACCOUNT_EXISTS };

describe('the federated linking rule', () => {
  it('creates an account when no account has the e-mail', () => {
    expect(decideFederatedSignUp(signUp(verified), [], TRUSTED)).toEqual({ kind: 'create' });
    // Unverified and untrusted alike: with nobody to take over, a new account harms no one.
    expect(decideFederatedSignUp(signUp({ email: 'x@example.com' }, 'Campus_1'), [], TRUSTED)).toEqual({
      kind: 'create',
    });
  });

  it('links to the one confirmed e-mail-and-password account when the provider is trusted and the e-mail verified', () => {
    expect(decideFederatedSignUp(signUp(verified), [native()], TRUSTED)).toEqual({
      kind: 'link',
      to: 'ada-native-sub',
      source: { providerName: 'NorthsideAir', subject: 'abc123' },
    });
  });

  it('takes email_verified as a boolean or the string "true", and nothing else', () => {
    expect(decideFederatedSignUp(signUp({ ...verified, email_verified: true }), [native()], TRUSTED).kind).toBe('link');
    for (const value of ['false', false, 'TRUE', '1', 'yes', '', undefined]) {
      expect(decideFederatedSignUp(signUp({ ...verified, email_verified: value }), [native()], TRUSTED)).toEqual(
        refused,
      );
    }
  });

  it('refuses a provider that is not trusted for linking, whatever it asserts', () => {
    expect(decideFederatedSignUp(signUp(verified, 'Campus_abc'), [native()], TRUSTED)).toEqual(refused);
    expect(decideFederatedSignUp(signUp(verified), [native()], [])).toEqual(refused);
  });

  it('refuses to link to an account whose owner never proved the e-mail (a squatted sign-up)', () => {
    expect(decideFederatedSignUp(signUp(verified), [native('ada@example.com', false)], TRUSTED)).toEqual(refused);
  });

  it('refuses when the only account is another provider’s login, or when the e-mail names two accounts', () => {
    const google = { username: 'google_1', email: 'ada@example.com', federated: true, confirmed: true };
    expect(decideFederatedSignUp(signUp(verified), [google], TRUSTED)).toEqual(refused);
    const other = { ...native(), username: 'other-sub' };
    expect(decideFederatedSignUp(signUp(verified), [native(), other], TRUSTED)).toEqual(refused);
    // Another provider's login beside the password account does not stand in the way.
    expect(decideFederatedSignUp(signUp(verified), [native(), google], TRUSTED).kind).toBe('link');
  });

  it('matches the e-mail whatever its case, and ignores accounts the lookup found with another e-mail', () => {
    expect(decideFederatedSignUp(signUp(verified), [native('ADA@Example.com')], TRUSTED).kind).toBe('link');
    expect(decideFederatedSignUp(signUp(verified), [native('ada@example.org')], TRUSTED)).toEqual({ kind: 'create' });
  });

  it('refuses a login without an e-mail, with its own message', () => {
    for (const attributes of [{ email_verified: 'true' }, { email: '  ', email_verified: 'true' }]) {
      expect(decideFederatedSignUp(signUp(attributes), [], TRUSTED)).toEqual({
        kind: 'refuse',
        message: FEDERATED_NO_EMAIL,
      });
    }
  });

  it('never links unless the provider is trusted, the e-mail verified and exactly one confirmed password account holds it', () => {
    const account = fc.record({
      username: fc.string({ minLength: 1 }),
      email: fc.constantFrom('ada@example.com', 'ADA@example.com', 'bob@example.com'),
      federated: fc.boolean(),
      confirmed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('Google', 'google', 'NorthsideAir', 'Campus', 'Other'),
        fc.string({ minLength: 1 }),
        fc.constantFrom<unknown>('true', true, 'false', false, undefined, 'True'),
        fc.array(account, { maxLength: 4 }),
        (provider, subject, emailVerified, existing) => {
          const decision = decideFederatedSignUp(
            signUp({ email: 'ada@example.com', email_verified: emailVerified as string }, `${provider}_${subject}`),
            existing,
            TRUSTED,
          );
          const same = existing.filter((a) => a.email.toLowerCase() === 'ada@example.com');
          const natives = same.filter((a) => !a.federated);
          if (same.length === 0) return decision.kind === 'create';
          if (decision.kind === 'create') return false;
          if (decision.kind === 'refuse') return decision.message === FEDERATED_ACCOUNT_EXISTS;
          return (
            TRUSTED.some((t) => t.toLowerCase() === provider.toLowerCase()) &&
            (emailVerified === true || emailVerified === 'true') &&
            natives.length === 1 &&
            natives[0]!.confirmed &&
            decision.to === natives[0]!.username &&
            decision.source.subject === subject
          );
        },
      ),
    );
  });
});

describe('an e-mail-and-password sign-up', () => {
  it('is refused when a provider’s login holds the address, whatever its case, and let through otherwise', () => {
    const google = { username: 'google_1', email: 'Ada@Example.com', federated: true, confirmed: false };
    expect(decideNativeSignUp('ada@example.com', [google])).toEqual(refused);
    expect(decideNativeSignUp('ada@example.com', [])).toEqual({ kind: 'create' });
    // Another password account of the address is Cognito's own refusal (UsernameExistsException), not ours.
    expect(decideNativeSignUp('ada@example.com', [native()])).toEqual({ kind: 'create' });
    expect(decideNativeSignUp('bob@example.com', [google])).toEqual({ kind: 'create' });
  });
});

describe('the provider login of a user name', () => {
  it('splits at the first underscore, keeps the subject as it is and the trusted list’s spelling', () => {
    expect(providerLoginOf('google_10987_Ab', TRUSTED)).toEqual({ providerName: 'Google', subject: '10987_Ab' });
    expect(providerLoginOf('NorthsideAir_abc123', TRUSTED)).toEqual({
      providerName: 'NorthsideAir',
      subject: 'abc123',
    });
  });

  it('knows no provider outside the list, and no user name without both halves', () => {
    for (const userName of ['Campus_abc', 'abc', '_abc', 'Google_', 'Googl_abc']) {
      expect(providerLoginOf(userName, TRUSTED)).toBeUndefined();
    }
  });

  it('reads email_verified as providers send it', () => {
    expect([true, 'true', false, 'false', undefined, 'True'].map(emailVerifiedOf)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
