import { linkedProvidersOf, methodsOfRecord, signInLabelsOf, signInMethodsOf } from './sign-in-methods';

const identities = (...providers: string[]) =>
  JSON.stringify(providers.map((providerName, i) => ({ providerName, userId: `sub-${i}`, providerType: 'OIDC' })));

describe('how an account signs in, from a Cognito trigger event (signInMethodsOf)', () => {
  it('is password for an e-mail-and-password account, confirmed or signing in', () => {
    expect(signInMethodsOf({ userName: 'ada-sub', attributes: { 'cognito:user_status': 'CONFIRMED' } })).toEqual([
      'password',
    ]);
    expect(signInMethodsOf({ userName: '0f0e-sub', attributes: {} })).toEqual(['password']);
  });

  it("is the provider alone for a provider's own account, from its identities or, without them, its user name", () => {
    expect(
      signInMethodsOf({
        userName: 'NorthsideAir_abc123',
        attributes: { 'cognito:user_status': 'EXTERNAL_PROVIDER', identities: identities('NorthsideAir') },
      }),
    ).toEqual(['NorthsideAir']);
    expect(
      signInMethodsOf({ userName: 'NorthsideAir_abc_123', attributes: { 'cognito:user_status': 'EXTERNAL_PROVIDER' } }),
    ).toEqual(['NorthsideAir']);
  });

  it("knows a provider's own account by its name matching its identities when the status is not given", () => {
    expect(signInMethodsOf({ userName: 'google_1234', attributes: { identities: identities('Google') } })).toEqual([
      'Google',
    ]);
  });

  it('keeps the provider’s own spelling when a case-insensitive pool lower-cased the user name', () => {
    expect(
      signInMethodsOf({
        userName: 'northsideair_abc',
        attributes: { 'cognito:user_status': 'EXTERNAL_PROVIDER', identities: identities('NorthsideAir') },
      }),
    ).toEqual(['NorthsideAir']);
  });

  it('is password and the linked providers for a password account a login was linked to', () => {
    expect(
      signInMethodsOf({
        userName: 'ada-sub',
        attributes: { 'cognito:user_status': 'CONFIRMED', identities: identities('NorthsideAir', 'Google') },
      }),
    ).toEqual(['password', 'NorthsideAir', 'Google']);
  });

  it('reads unreadable identities as none', () => {
    expect(linkedProvidersOf('not json')).toEqual([]);
    expect(linkedProvidersOf('{"providerName":"X"}')).toEqual([]);
    expect(linkedProvidersOf('[{"userId":"1"},null,{"providerName":""}]')).toEqual([]);
    expect(signInMethodsOf({ userName: 'ada-sub', attributes: { identities: '[' } })).toEqual(['password']);
  });
});

describe('how a person signs in, as people read it (signInLabelsOf)', () => {
  const providers = [{ name: 'NorthsideAir', label: 'Northside Air Network' }, { name: 'Campus-SAML' }];

  it('reads a record without methods (written before they were kept) as e-mail and password', () => {
    expect(methodsOfRecord(undefined)).toEqual(['password']);
    expect(methodsOfRecord([])).toEqual(['password']);
    expect(signInLabelsOf(undefined, providers)).toEqual(['E-mail and password']);
  });

  it('names a provider by its label, else its name, and password first', () => {
    expect(signInLabelsOf(['NorthsideAir'], providers)).toEqual(['Northside Air Network']);
    expect(signInLabelsOf(['NorthsideAir', 'password'], providers)).toEqual([
      'E-mail and password',
      'Northside Air Network',
    ]);
    expect(signInLabelsOf(['Campus-SAML'], providers)).toEqual(['Campus-SAML']);
  });

  it('still names a provider the environment no longer lists', () => {
    expect(signInLabelsOf(['Google'], providers)).toEqual(['Google']);
  });
});
